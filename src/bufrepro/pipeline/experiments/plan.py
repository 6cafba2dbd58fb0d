"""An experiment's runs: each search stage's buffers, its run specs, and its batches."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.backends.base import RunSpec
from bufrepro.kit.experiment import ROOT, Experiment, run_points
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline.experiments import search
from bufrepro.pipeline.scenario import Scenario
from bufrepro.pipeline.scenario import spec as scenario_spec


@dataclass(frozen=True)
class Resolved:
    """A named experiment resolved once from the config: its block, its kind, and the backend,
    scenario and options that kind chose for the block."""

    name: str
    block: Mapping[str, Any]
    kind: Experiment
    backend: str
    template: str
    options: Mapping[str, str]


def resolve(cfg: Mapping[str, Any], name: str) -> Resolved:
    """The experiment called `name` of the validated config, resolved once."""
    found = block(cfg, name)
    kind = registry.kind(str(found["kind"]))
    return Resolved(
        name=name,
        block=found,
        kind=kind,
        backend=kind.backend_for(found),
        template=kind.template_for(found),
        options=kind.options_for(found),
    )


def scenario(exp: Resolved) -> Scenario:
    """The experiment's runs on its backend."""
    kind, found = exp.kind, exp.block
    return Scenario(
        owner=exp.name,
        backend=exp.backend,
        template=exp.template,
        params=lambda p: kind.params(exp.name, found, p),
        parser_for=lambda p: kind.parser,
        parse_args=lambda p: kind.parse_args(found, p),
        parsers=(kind.parser,),
        stream=kind.stream,
        options=exp.options,
    )


def block(cfg: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """The experiment's validated block."""
    found: Mapping[str, Any] = cfg["experiments"][name]
    return found


def kind_of(cfg: Mapping[str, Any], name: str) -> Experiment:
    """The experiment's kind."""
    return registry.kind(str(block(cfg, name)["kind"]))


def folder(name: str) -> Path:
    """results/experiments/<name>/."""
    return Path(ROOT) / name


def refine_file(name: str) -> Path:
    """Where the refine stage's buffers are written (the checkpoint's output)."""
    return folder(name) / "search" / "refine.json"


def coarse_buffers(cfg: Mapping[str, Any], name: str) -> list[int]:
    """The first pass: log-spaced buffers over the kind's range."""
    b = block(cfg, name)
    lo, hi = kind_of(cfg, name).axis_range(b)
    return search.log_spaced(lo, hi, int(b["buffers"]["coarse"]))


def stage_pairs(cfg: Mapping[str, Any], name: str, stage: str) -> list[tuple[str, int]]:
    """(series value, buffer) of a stage; the refine stage's from its file."""
    if stage == "coarse":
        buffers = {
            s: coarse_buffers(cfg, name) for s in kind_of(cfg, name).series(block(cfg, name))
        }
    elif stage == "refine":
        path = refine_file(name)
        buffers = json.loads(path.read_text(encoding="utf-8"))["buffers"] if path.is_file() else {}
    else:
        raise ValueError(f"stage {stage!r}; allowed: {', '.join(search.STAGES)}")
    return [(s, b) for s, bs in buffers.items() for b in bs]


def stage_points(cfg: Mapping[str, Any], name: str, stage: str) -> list[RunPoint]:
    """Every run of a stage, seeds innermost."""
    b = block(cfg, name)
    return run_points(name, kind_of(cfg, name), stage_pairs(cfg, name, stage), b["seeds"])


def n_batches(cfg: Mapping[str, Any], name: str, n_runs: int) -> int:
    """How many jobs carry n_runs runs (runs_per_job each, at least one job)."""
    per = int(block(cfg, name)["runs_per_job"])
    return max(1, -(-n_runs // per))


def batch_points(cfg: Mapping[str, Any], name: str, stage: str, index: int) -> list[RunPoint]:
    """The index-th batch of a stage: every n-th run, so that small and large buffers mix."""
    points = stage_points(cfg, name, stage)
    return points[index :: n_batches(cfg, name, len(points))]


def spec(cfg: Mapping[str, Any], name: str, point: RunPoint) -> RunSpec:
    """A run's spec (scenario.spec of the experiment's scenario)."""
    return scenario_spec(scenario(resolve(cfg, name)), point)


def batch_specs(cfg: Mapping[str, Any], name: str, batch: str) -> tuple[str, list[RunSpec]]:
    """(backend, specs) of a batch named <stage>-b<index> (e.g. coarse-b0000)."""
    stage, _, index = batch.partition("-")
    exp = resolve(cfg, name)
    chosen = scenario(exp)
    points = batch_points(cfg, name, stage, int(index.lstrip("b")))
    return exp.backend, [scenario_spec(chosen, p) for p in points]
