"""Run one batch of an experiment's stage, and pick the refining buffers from the coarse runs."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bufrepro import backends
from bufrepro.backends.base import RunFailed, execute
from bufrepro.kit import checks, units
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline.experiments import plan, search


def run_batch(cfg: Mapping[str, Any], name: str, stage: str, batch: str, manifest: Path) -> int:
    """Run every run of the batch not yet current; write the manifest when all succeeded.

    A failed run does not stop the others; the job then fails naming each one and the command
    that reproduces it. Returns the number of runs made.
    """
    points = plan.batch_points(cfg, name, stage, int(batch.lstrip("b")))
    backend = backends.get(plan.kind_of(cfg, name).backend_for(plan.block(cfg, name)), cfg)
    rows, failures, made = [], [], 0
    for point in points:
        start = time.monotonic()
        try:
            status = execute(backend, plan.spec(cfg, name, point), bool(cfg.get("keep_traces")))
        except (RunFailed, OSError) as err:
            failures.append(str(err))
            print(f"FAILED {point.run_dir}: {err}", flush=True)
            continue
        made += status == "ran"
        took = time.monotonic() - start
        rows.append(f"{point.run_dir}\t{status}\t{took:.3f}")
        print(f"{status:7} {point.run_dir} ({took:.2f} s)", flush=True)
    if failures:
        raise RunFailed(
            f"{len(failures)} of {len(points)} runs of {name} {stage}-{batch} failed:\n"
            + "\n".join(failures)
        )
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text("run_dir\tstatus\tseconds\n" + "".join(f"{r}\n" for r in rows))
    return made


def metrics(point: RunPoint) -> dict[str, float | None]:
    """One finished run's metrics (BadRunFiles when its metrics.tsv cannot be trusted)."""
    path = Path(point.run_dir) / "metrics.tsv"
    return checks.parse_metrics(path.read_text(encoding="utf-8"), str(path))


def mean_utilisation(
    points: Sequence[RunPoint], seeds: Sequence[int] | None = None
) -> dict[str, dict[int, float]]:
    """{series: {buffer: mean link_utilisation over the seeds}} of the points (seeds: a subset)."""
    sums: dict[str, dict[int, list[float]]] = {}
    for p in points:
        if seeds is not None and p.seed not in seeds:
            continue
        value = metrics(p).get("link_utilisation") or 0.0
        sums.setdefault(str(p.values[0][1]), {}).setdefault(int(p.values[1][1]), []).append(value)
    return {s: {b: sum(v) / len(v) for b, v in by.items()} for s, by in sums.items()}


def write_refinement(cfg: Mapping[str, Any], name: str, out: Path) -> dict[str, list[int]]:
    """The refine stage's buffers per series: between each series' coarse knee and the buffer
    below it; written to `out` with the coarse knees."""
    block = plan.block(cfg, name)
    within = units.fraction(block["targets"]["within"], "targets.within")
    util = mean_utilisation(plan.stage_points(cfg, name, "coarse"))
    count = int(block["buffers"]["refine"])
    knees = {s: search.knee(u, within) for s, u in util.items()}
    buffers = {s: search.refinement(sorted(util[s]), k, count) for s, k in knees.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps({"coarse_knee": knees, "buffers": buffers}, indent=1, sort_keys=True) + "\n"
    )
    return buffers
