"""Shared by the hstcp tests: a tiny scenario 1 that real ns runs in well under a second."""

from __future__ import annotations

from typing import Any

from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import configuration
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
