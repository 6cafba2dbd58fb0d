"""Shared by the hstcp tests: a tiny scenario 1 that real ns runs in well under a second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bufrepro.backends.base import RunSpec
from bufrepro.backends.factory import Bound
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import batch, configuration
from bufrepro.studies.hstcp import STUDY
from conftest import merged

# A tiny version of scenario 1 (10 Mb/s, 2.5 s).
TINY_HSTCP: dict[str, Any] = {
    "studies": ["hstcp"],
    "hstcp": {
        "seeds": [1, 2],
        "grid": {"scenario": ["s1"], "queue": ["DropTail", "RED"], "buffer_frac": [0.1, 1.0]},
        "scenarios": {
            "s1": {
                "bottleneck_mbps": 10,
                "bottleneck_delay_ms": 50,
                "rtt_min_ms": 115.5,
                "rtt_max_ms": 124.5,
                "n_flows": 10,
            }
        },
        "tcp": {"start_jitter_s": 0.5},
        "measure": {"duration_s": 2.5, "warmup_s": 1, "sample_s": 0.25},
        "twoflow": {"bottleneck_mbps": 10, "duration_s": 2.5, "warmup_s": 1, "timeseries_s": 0.05},
    },
}


def tiny() -> dict[str, Any]:
    """The validated tiny config."""
    return configuration.validate(merged(TINY_HSTCP))


def defaults() -> dict[str, Any]:
    """The validated default config."""
    return configuration.validate(merged({}))


def point(block: dict[str, Any], queue: str, frac: float, seed: int, scen: str = "s1") -> RunPoint:
    """The grid run of one scenario, queue, buffer fraction and seed."""
    return next(
        p
        for p in STUDY.runs(block)
        if p.get("scenario") == scen
        and p.get("queue") == queue
        and p.get("buffer_frac") == frac
        and p.seed == seed
    )


def side_bound(block: dict[str, Any], kind: str) -> Bound:
    """The engine's scenario of hstcp's side runs of one kind (scope hstcp/<kind>)."""
    cfg = {"studies": ["hstcp"], "hstcp": block}
    return batch.bound(cfg, batch.scope(cfg, f"hstcp/{kind}"))


def side_specs(block: dict[str, Any], kind: str, base: Path = Path()) -> list[RunSpec]:
    """Every run of hstcp's side runs of one kind, as the batch rule makes them."""
    cfg = {"studies": ["hstcp"], "hstcp": block}
    return batch.scope_specs(cfg, batch.scope(cfg, f"hstcp/{kind}"), base)


def run_side(cfg: dict[str, Any], kind: str) -> list[str]:
    """Run every batch of scope hstcp/<kind> as the batch rule does (in the working directory);
    the run folders its manifests list."""
    chosen = batch.scope(cfg, f"hstcp/{kind}")
    made = []
    for i in range(len(batch.batches(cfg, chosen))):
        manifest = Path("results", str(chosen), "batches", f"b{i:04d}.tsv")
        batch.run_batch(cfg, str(chosen), f"b{i:04d}", manifest)
        made.append(manifest)
    return batch.manifest_runs(made)
