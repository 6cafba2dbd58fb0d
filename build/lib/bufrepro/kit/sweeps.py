"""Grids written as a list of named sweeps (ramya, vegas): their points and their checks."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from bufrepro.kit.study import Block


def points(block: Block, keys: Sequence[str]) -> list[tuple[Any, ...]]:
    """The union of the sweeps' cross products over `keys`, in config order, each point once."""
    seen: dict[tuple[Any, ...], None] = {}
    for sweep in block["grid"]:
        for combo in itertools.product(*(sweep[k] for k in keys)):
            seen.setdefault(tuple(combo), None)
    return list(seen)


def problems(study: str, block: Block) -> list[str]:
    """What the schema cannot check of such a study: each setup's window, unique sweep names,
    and a series seed that is one of the seeds."""
    out = []
    for name, setup in block["setups"].items():
        if setup["warmup_s"] >= setup["duration_s"]:
            out.append(
                f"config key {study}.setups.{name}.warmup_s: {setup['warmup_s']} must be below "
                f"duration_s ({setup['duration_s']})"
            )
    if block["monitor"]["series_seed"] not in block["seeds"]:
        out.append(
            f"config key {study}.monitor.series_seed: {block['monitor']['series_seed']} is not "
            f"one of {study}.seeds {block['seeds']}"
        )
    names = [s["name"] for s in block["grid"]]
    if len(set(names)) != len(names):
        out.append(f"config key {study}.grid: sweep names must be unique, got {names}")
    return out
