"""Plan a study's runs: run specs from the validated config, and batches of runs per job."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.backends.base import RunSpec
from bufrepro.backends.factory import Bound
from bufrepro.backends.factory import spec as bound_spec
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Study


def runs_per_job(cfg: Mapping[str, Any], study: Study) -> int:
    """How many runs one job carries: the config's runs_per_job[study], else the study's own."""
    return int(cfg.get("runs_per_job", {}).get(study.name, study.runs_per_job))


def simulators(cfg: Mapping[str, Any], name: str) -> list[str]:
    """The backends a study runs on (config key simulators.<study>; default its own)."""
    return list(cfg.get("simulators", {}).get(name) or [registry.get(name).own_simulator()])


def other_simulators(cfg: Mapping[str, Any], name: str) -> list[str]:
    """The backends a study runs on beside its own (their runs: results/<study>/<backend>/)."""
    own = registry.get(name).own_simulator()
    return [b for b in simulators(cfg, name) if b != own]


def simulator_block(cfg: Mapping[str, Any], name: str, backend: str) -> dict[str, Any]:
    """The study's block as `backend` runs it: its grid's queues replaced by the config's
    simulator_queues.<study>.<backend> where set (e.g. CoDel, PIE and FQ-CoDel on ns3 alone),
    other grid values and the seeds by simulator_grid.<study>.<backend>'s."""
    block = dict(cfg[name])
    chosen = dict(cfg.get("simulator_grid", {}).get(name, {}).get(backend) or {})
    if "seeds" in chosen:
        block["seeds"] = list(chosen.pop("seeds"))
    queues = cfg.get("simulator_queues", {}).get(name, {}).get(backend)
    if queues:
        chosen["queue"] = list(queues)
    if chosen:
        block["grid"] = {**block["grid"], **{k: list(v) for k, v in chosen.items()}}
    return block


def queue_backend(cfg: Mapping[str, Any], name: str) -> str:
    """The further simulator that runs queues beyond the study's own grid (today's AQMs, config
    key simulator_queues), when the study has words for them (Study.queue_words); "" if none:
    the report's "today's queues" section judges the papers' claims there."""
    study = registry.get(name)
    if not study.queue_words():
        return ""
    own = set(cfg[name].get("grid", {}).get("queue", []))
    for backend in other_simulators(cfg, name):
        queues = cfg.get("simulator_queues", {}).get(name, {}).get(backend) or []
        if set(queues) - own:
            return backend
    return ""


def batches(cfg: Mapping[str, Any], name: str, backend: str = "") -> list[list[RunPoint]]:
    """The study's runs in grid order, cut into batches of runs_per_job runs; on `backend`
    (one of other_simulators) when given, else on the study's own backend."""
    study = registry.get(name)
    if backend and backend != study.own_simulator():
        points = study.runs(simulator_block(cfg, name, backend))
        points = [dataclasses.replace(p, backend=backend) for p in points]
    else:
        points = study.runs(cfg[name])
    return cut(points, runs_per_job(cfg, study))


def cut(points: list[RunPoint], size: int) -> list[list[RunPoint]]:
    """Run points in order, cut into batches of `size` runs."""
    return [points[i : i + size] for i in range(0, len(points), size)]


def batch_name(index: int) -> str:
    """The name of the index-th batch (b0000, b0001, ...)."""
    return f"b{index:04d}"


def batch_index(name: str) -> int:
    """The index of a batch name; anything else is an error."""
    if len(name) < 5 or name[0] != "b" or not name[1:].isdigit():
        raise ValueError(f"{name!r} is not a batch name (b0000, b0001, ...)")
    return int(name[1:])


def bound(cfg: Mapping[str, Any], name: str, backend: str = "") -> Bound:
    """The study's runs on `backend` (its own when empty): that simulator's declaration
    (Study.declarations) bound to the study's block as that simulator runs it; every run's
    params.json records the simulator (factory.spec), the own one's as a further one's."""
    study = registry.get(name)
    chosen = backend or study.own_simulator()
    own = chosen == study.own_simulator()
    return Bound(
        owner=name,
        backend=chosen,
        declaration=study.declarations()[chosen],
        setup=cfg[name] if own else simulator_block(cfg, name, chosen),
    )


def spec(cfg: Mapping[str, Any], point: RunPoint, base: Path = Path()) -> RunSpec:
    """A study run's spec (scenario.spec of the study's scenario on the point's backend)."""
    return bound_spec(bound(cfg, point.owner, point.backend), point, base)
