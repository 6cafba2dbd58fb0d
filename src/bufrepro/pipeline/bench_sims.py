"""Benchmark of further simulators: a run against its stream off and against the study's own."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bufrepro import backends, registry
from bufrepro.backends.base import RunSpec, execute
from bufrepro.pipeline import configuration, plan
from bufrepro.pipeline.bench import floor_run, untraced

# The stream overhead the issue allows: a run's CPU over its program's with the stream off.
GOAL = 1.3


def _cpu(backend: Any, spec: RunSpec) -> float:
    """CPU seconds of the run's own simulator and parsers (run.json's cpu_s); each simulator
    started afresh (backends.ns2.serve false), so that both pay their start-up."""
    execute(backend, spec)
    meta = json.loads((spec.run_dir / "run.json").read_text(encoding="utf-8"))
    return float(sum(meta["cpu_s"].values()))


def rows(cfg: Mapping[str, Any], name: str, work: Path) -> list[dict[str, Any]]:
    """Per cell of the study's grid (its first seed) and further simulator: CPU seconds of the
    run, of its program with the stream off, and of the study's own simulator's run."""
    study = registry.get(name)
    ns2 = {**cfg.get("backends", {}).get("ns2", {}), "serve": False}
    cfg = {**cfg, "backends": {**cfg.get("backends", {}), "ns2": ns2}}
    own = backends.get(study.own_simulator(), cfg)
    out = []
    for other in plan.other_simulators(cfg, name):
        sim = backends.get(other, cfg)
        off = dict(plan.bound(cfg, name, other).declaration.untraced)
        for point in (p for b in plan.batches(cfg, name, other) for p in b):
            if point.seed != cfg[name]["seeds"][0]:
                continue
            where = work / name / other / point.run_dir
            spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where / "run")
            run_cpu = _cpu(sim, spec)
            _, floor_cpu = floor_run(
                sim, untraced(dataclasses.replace(spec, run_dir=where / "off"), off)
            )
            mine = dataclasses.replace(point, backend="")
            own_spec = dataclasses.replace(
                plan.spec(cfg, mine), run_dir=where / study.own_simulator()
            )
            # A queue the study's own simulator lacks (today's AQMs on ns-3): no own run.
            queue = dict(point.values).get("queue")
            has = queue is None or queue in backends.queues(study.own_simulator())
            own_cpu = _cpu(own, own_spec) if has else math.nan
            out.append(
                {
                    "cell": "/".join(point.run_dir.split("/")[4:-1]),
                    "run": run_cpu,
                    "off": floor_cpu,
                    "own": own_cpu,
                    "other": other,
                    "own_name": study.own_simulator(),
                }
            )
    return out


def report(profile: str, names: Sequence[str], work: Path) -> str:
    """The benchmark's table per study: each further simulator's runs on the profile's grid."""
    raw = configuration.load(profile=profile)
    chosen = {n: list(registry.get(n).simulators()) for n in names}
    cfg = configuration.validate({**raw, "simulators": chosen})
    lines = []
    for name in names:
        found = rows(cfg, name, work)
        if not found:
            lines.append(f"{name}: no further simulator")
            continue
        other, own_name = found[0]["other"], found[0]["own_name"]
        lines.append(
            f"{name}: CPU s per run, {other} with its stream and parser against its program with "
            f"the stream off (goal <= {GOAL}x), and against {own_name}"
        )
        lines.append(f"  {'cell':34} {other:>8} {'off':>8} {'ratio':>6} {own_name:>8} {'x':>6}")
        for r in found:
            off = r["run"] / max(r["off"], 1e-3)
            own = (
                f" {r['own']:8.3f} {r['run'] / max(r['own'], 1e-3):5.2f}x"
                if not math.isnan(r["own"])
                else f" {'-':>8} {'-':>6}"
            )
            lines.append(f"  {r['cell']:34} {r['run']:8.3f} {r['off']:8.3f} {off:5.2f}x{own}")
        total = sum(r["run"] for r in found)
        both = [r for r in found if not math.isnan(r["own"])]
        mine = sum(r["run"] for r in both) / max(sum(r["own"] for r in both), 1e-3)
        lines.append(
            f"  all {len(found)} cells: {total / max(sum(r['off'] for r in found), 1e-3):.2f}x "
            f"the stream off; the {len(both)} cells {own_name} runs too: {mine:.2f}x {own_name}"
        )
    return "\n".join(lines)
