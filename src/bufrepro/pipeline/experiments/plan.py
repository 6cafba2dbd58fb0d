"""An experiment's runs: resolved once from the config, each search stage's buffers and batches."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.backends.base import RunSpec
from bufrepro.backends.factory import Bound
from bufrepro.backends.factory import spec as bound_spec
from bufrepro.kit.experiment import ROOT, Experiment, run_points
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline.experiments import search

# The figures of every experiment's answer (results/experiments/<name>/figures/<f>.png; captions
# report/captions/experiments/<f>.rst): the answer job draws them, the workflow expects them.
FIGURES = ("utilisation_delay", "delay_vs_throughput", "loss")


@dataclass(frozen=True)
class Resolved:
    """A named experiment resolved once from the validated config: its block, its kind, and the
    simulator that kind chose for the block; passed down to every stage."""

    name: str
    block: Mapping[str, Any]
    kind: Experiment[Any]
    # The block parsed once by its kind (Experiment.setup; the link kind's: the block and Link).
    setup: Any
    backend: str

    @property
    def folder(self) -> Path:
        """results/experiments/<name>/."""
        return folder(self.name)

    @property
    def refine_file(self) -> Path:
        """Where the refine stage's buffers are written (the checkpoint's output)."""
        return refine_file(self.name)


def resolve(cfg: Mapping[str, Any], name: str) -> Resolved:
    """The experiment called `name` of the validated config, resolved once."""
    block: Mapping[str, Any] = cfg["experiments"][name]
    kind = registry.kind(str(block["kind"]))
    return Resolved(
        name=name,
        block=block,
        kind=kind,
        setup=kind.setup(block),
        backend=kind.backend_for(block),
    )


def bound(exp: Resolved) -> Bound:
    """The experiment's runs on its simulator: that simulator's declaration (its kind's
    declarations) bound to the experiment's setup."""
    return Bound(
        owner=exp.name,
        backend=exp.backend,
        declaration=exp.kind.declarations()[exp.backend],
        setup=exp.setup,
    )


def folder(name: str) -> Path:
    """results/experiments/<name>/."""
    return Path(ROOT) / name


def refine_file(name: str) -> Path:
    """Where the refine stage's buffers are written (the checkpoint's output)."""
    return folder(name) / "search" / "refine.json"


def coarse_buffers(exp: Resolved) -> list[int]:
    """The first pass: log-spaced buffers over the kind's range."""
    lo, hi = exp.kind.axis_range(exp.setup)
    return search.log_spaced(lo, hi, int(exp.block["buffers"]["coarse"]))


def stage_pairs(exp: Resolved, stage: str, part: str = "buffers") -> list[tuple[str, int]]:
    """(series value, buffer) of a stage; the refine stage's from its file (`part`: its
    refining "buffers", or the first pass's buffers the "second_set" of seeds runs)."""
    if stage == "coarse":
        coarse = coarse_buffers(exp)
        buffers = {s: coarse for s in exp.kind.series(exp.setup)}
    elif stage == "refine":
        path = exp.refine_file
        chosen = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        buffers = chosen.get(part, {})
    else:
        raise ValueError(f"stage {stage!r}; allowed: {', '.join(search.STAGES)}")
    return [(s, b) for s, bs in buffers.items() for b in bs]


def coarse_seeds(exp: Resolved) -> list[int]:
    """The first pass's seeds: the first seed set under buffers.second_set near_knee (the
    second set runs in the refine stage, near the knee only), else every seed."""
    seeds = list(exp.block["seeds"])
    return search.seed_sets(seeds)[0] if second_set_near_knee(exp) else seeds


def second_set_near_knee(exp: Resolved) -> bool:
    """Whether the second seed set runs near the first set's knee only (buffers.second_set)."""
    return str(exp.block["buffers"].get("second_set", "near_knee")) == "near_knee"


def stage_points(exp: Resolved, stage: str) -> list[RunPoint]:
    """Every run of a stage, seeds innermost: the first pass on coarse_seeds; the refine stage's
    refining buffers on every seed, then the first pass's buffers near the knee on the second
    seed set."""
    name, kind, seeds = exp.name, exp.kind, list(exp.block["seeds"])
    if stage == "coarse":
        return run_points(name, kind, stage_pairs(exp, stage), coarse_seeds(exp))
    points = run_points(name, kind, stage_pairs(exp, stage), seeds)
    second = stage_pairs(exp, stage, "second_set")
    return points + (run_points(name, kind, second, search.seed_sets(seeds)[1]) if second else [])


def n_batches(exp: Resolved, n_runs: int) -> int:
    """How many jobs carry n_runs runs (runs_per_job each, at least one job)."""
    return max(1, -(-n_runs // int(exp.block["runs_per_job"])))


def batch_points(exp: Resolved, stage: str, index: int) -> list[RunPoint]:
    """The index-th batch of a stage: every n-th run, so that small and large buffers mix."""
    points = stage_points(exp, stage)
    return points[index :: n_batches(exp, len(points))]


def spec(exp: Resolved, point: RunPoint) -> RunSpec:
    """A run's spec (scenario.spec of the experiment's scenario)."""
    return bound_spec(bound(exp), point)


def batch_specs(exp: Resolved, batch: str) -> tuple[str, list[RunSpec]]:
    """(backend, specs) of a batch named <stage>-b<index> (e.g. coarse-b0000)."""
    stage, _, index = batch.partition("-")
    chosen = bound(exp)
    points = batch_points(exp, stage, int(index.lstrip("b")))
    return exp.backend, [bound_spec(chosen, p) for p in points]
