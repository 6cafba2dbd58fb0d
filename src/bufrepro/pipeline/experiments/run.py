"""An experiment's finished runs read back, and the refining buffers picked from the coarse runs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from bufrepro.kit import checks, units
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline.experiments import plan, search


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


def write_refinement(exp: plan.Resolved, out: Path) -> dict[str, list[int]]:
    """The refine stage's buffers per series: between each series' coarse knee and the buffer
    below it; written to `out` with the coarse knees and, under buffers.second_set near_knee,
    the first pass's buffers the second seed set runs (search.near_knee)."""
    block = exp.block
    within = units.fraction(block["targets"]["within"], "targets.within")
    util = mean_utilisation(plan.stage_points(exp, "coarse"))
    count = int(block["buffers"]["refine"])
    knees = {s: search.knee(u, within) for s, u in util.items()}
    buffers = {s: search.refinement(sorted(util[s]), k, count) for s, k in knees.items()}
    chosen: dict[str, object] = {"coarse_knee": knees, "buffers": buffers}
    if plan.second_set_near_knee(exp):
        chosen["second_set"] = {s: search.near_knee(sorted(util[s]), k) for s, k in knees.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(chosen, indent=1, sort_keys=True) + "\n")
    return buffers
