"""A reading's runs: the study config with the reading applied, run in parallel, then diffed."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bufrepro import backends, registry
from bufrepro.backends.base import RunSpec
from bufrepro.backends.runall import execute_all
from bufrepro.kit import space as kspace
from bufrepro.kit import tables
from bufrepro.pipeline import plan
from bufrepro.pipeline.readings.space import Space, reading_block, validate_block

# Settings that do not change a run's result: left out of a reading's folder name, so that the
# same reading run on other cells or seeds shares its folder (and its runs). "compare" holds how
# a study's metrics meet the published columns (e.g. the dumbbell's delay definition); a study's
# `readings` (the cell each published table is diffed against) only choose the points, whose
# values name the run folders.
NOT_SETTINGS = ("grid", "seeds", "assumptions", "claims", "compare", "readings")


@dataclass(frozen=True)
class Reading:
    """One reading: its id, the values of its parameters, and the study block it makes."""

    id: str
    study: str
    values: Mapping[str, Any]
    block: Mapping[str, Any]

    @property
    def folder(self) -> str:
        """Where its runs live, relative to the repository: results/<S>/readings/runs/<digest>."""
        return f"results/{self.study}/readings/runs/{kspace.digest(self.block, NOT_SETTINGS)}"


def make(
    cfg: Mapping[str, Any],
    space: Space,
    rid: str,
    values: Mapping[str, Any],
    seeds: Sequence[int] = (),
    cells: Mapping[str, Sequence[Any]] | None = None,
) -> Reading:
    """The reading: the study's block with overrides, values, cells and seeds, validated."""
    name = space.study
    checked = validate_block(name, reading_block(cfg, name, space.raw, values, seeds, cells))
    return Reading(rid, name, dict(values), checked)


def specs(cfg: Mapping[str, Any], reading: Reading) -> list[RunSpec]:
    """The reading's run specs, planned by the study itself, in the reading's folder."""
    name = reading.study
    block = dict(reading.block)
    local = {**cfg, name: block}
    prefix = f"results/{name}/runs/"
    out = []
    for point in registry.get(name).runs(block):
        spec = plan.spec(local, point)
        tail = point.run_dir.removeprefix(prefix)
        out.append(dataclasses.replace(spec, run_dir=Path(reading.folder) / tail))
    return out


@dataclass(frozen=True)
class Spent:
    """What running a set of readings cost: runs planned, runs made (not current), wall time."""

    runs: int
    ran: int
    wall_s: float
    # The runs' own simulate-and-parse times summed (run.json), whether made now or before.
    run_wall_s: float = 0.0


def run_all(cfg: Mapping[str, Any], readings: Sequence[Reading], threads: int) -> Spent:
    """Run every run of the readings not yet current, `threads` at a time; RunFailed on failure."""
    if not readings:
        return Spent(0, 0, 0.0)
    backend = backends.get(registry.get(readings[0].study).own_simulator(), cfg)
    unique = {str(s.run_dir): s for r in readings for s in specs(cfg, r)}
    start = time.monotonic()
    done = execute_all(backend, unique.values(), False, "runs of the readings", max(1, threads))
    wall = round(time.monotonic() - start, 3)
    run_wall = sum(_run_wall(s.run_dir) for s in unique.values())
    ran = sum(d.status == "ran" for d in done)
    return Spent(len(unique), ran, wall, round(run_wall, 3))


def _run_wall(run_dir: Path) -> float:
    """A run's simulate-and-parse time as its run.json records it."""
    meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return float(meta.get("wall_s", 0.0))


def _diff(
    cfg: Mapping[str, Any], reading: Reading, paper: Mapping[str, pd.DataFrame], dirs: list[Path]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(summary, diff) of the runs in `dirs`, every diff row kept."""
    study = registry.get(reading.study)
    runs, summary, _ = tables.study_tables(
        reading.study, dirs, study.grid_keys, study.reported, study.own_simulator()
    )
    stable = tables.stable_runs(runs)
    made: dict[str, pd.DataFrame] = {"runs": stable, "summary": summary, **paper}
    made.update(study.derive(dict(reading.block), stable, dirs))
    return summary, study.diff(dict(reading.block), made)


def evaluate(
    cfg: Mapping[str, Any], reading: Reading, paper: Mapping[str, pd.DataFrame]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(summary, diff) of a reading whose runs are made; the diff keeps rows with a counterpart."""
    dirs = [Path(s.run_dir) for s in specs(cfg, reading)]
    summary, diff = _diff(cfg, reading, paper, dirs)
    return summary, diff[diff["has_counterpart"].astype(bool)].reset_index(drop=True)


def per_seed(
    cfg: Mapping[str, Any], reading: Reading, paper: Mapping[str, pd.DataFrame]
) -> np.ndarray | None:
    """Each of evaluate()'s diff rows as one seed's runs alone give it (rows x seeds, the
    study's own diff on each seed's runs): what the verdict's bootstrap redraws. None when a
    seed's diff has other rows than the whole one (a seed missing a cell)."""
    by_seed: dict[int, list[Path]] = {}
    for s in specs(cfg, reading):
        by_seed.setdefault(int(s.record["seed"]), []).append(Path(s.run_dir))
    _, whole = _diff(cfg, reading, paper, [d for ds in by_seed.values() for d in ds])
    kept = whole["has_counterpart"].astype(bool).to_numpy()
    columns = []
    for seed in sorted(by_seed):
        _, one = _diff(cfg, reading, paper, by_seed[seed])
        if len(one) != len(whole):
            return None
        columns.append(pd.to_numeric(one["ours_mean"], errors="coerce").to_numpy(dtype=float))
    return np.column_stack(columns)[kept] if columns else None
