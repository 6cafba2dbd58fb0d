"""Plan a study's runs: run specs from the validated config, and batches of runs per job."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.backends.base import RunSpec
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Study


def runs_per_job(cfg: Mapping[str, Any], study: Study) -> int:
    """How many runs one job carries: the config's runs_per_job[study], else the study's own."""
    return int(cfg.get("runs_per_job", {}).get(study.name, study.runs_per_job))


def batches(cfg: Mapping[str, Any], name: str) -> list[list[RunPoint]]:
    """The study's runs in grid order, cut into batches of runs_per_job runs."""
    study = registry.get(name)
    points = study.runs(cfg[name])
    size = runs_per_job(cfg, study)
    return [points[i : i + size] for i in range(0, len(points), size)]


def batch_name(index: int) -> str:
    """The name of the index-th batch (b0000, b0001, ...)."""
    return f"b{index:04d}"


def batch_index(name: str) -> int:
    """The index of a batch name; anything else is an error."""
    if len(name) < 5 or name[0] != "b" or not name[1:].isdigit():
        raise ValueError(f"{name!r} is not a batch name (b0000, b0001, ...)")
    return int(name[1:])


def spec(cfg: Mapping[str, Any], point: RunPoint, base: Path = Path()) -> RunSpec:
    """A run's spec: its record (params.json), template, parser and parser variables."""
    study = registry.get(point.study)
    block = cfg[point.study]
    record = {**point.as_dict(), "template": study.template, "params": study.params(block, point)}
    return RunSpec(
        run_dir=base / point.run_dir,
        study=study.name,
        record=record,
        template=study.template,
        parser=study.parser_for(block, point),
        parser_args=study.parse_args(block, point),
        stream=study.stream,
        side_files=study.side_files,
        side_parser=study.side_parser,
        kept_files=study.kept_files,
        options=study.backend_options,
    )
