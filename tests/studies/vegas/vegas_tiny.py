"""A tiny vegas grid for tests (35 s runs), and finding one of its run points."""

from __future__ import annotations

from typing import Any

from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import configuration
from bufrepro.studies.vegas import STUDY
from conftest import NS2_PREFIX, merged


def sweep(name: str, setup: str, **over: Any) -> dict[str, Any]:
    """One sweep of the vegas grid: both variants, 512 B, 108 ms, buffer 50, start at 12 s."""
    out: dict[str, Any] = {
        "name": name,
        "setup": [setup],
        "variant": ["standard", "spacing"],
        "packet_bytes": [512],
        "rtt_ms": [108],
        "buffer": [50],
        "start_s": [12.0],
    }
    out.update(over)
    return out


# Runs short enough for tests (35 s: the transfer from 12 s, the handover after 30 s).
TINY: dict[str, Any] = {
    "studies": ["vegas"],
    "backends": {"ns2": {"prefix": str(NS2_PREFIX)}},
    "vegas": {
        "seeds": [1, 2],
        "setups": {
            "packet": {"duration_s": 35, "warmup_s": 0},
            "rtt": {"duration_s": 35, "warmup_s": 0},
        },
        "grid": [
            sweep("packet", "packet", packet_bytes=[256, 512]),
            sweep("rtt", "rtt", variant=["spacing"], rtt_ms=[60, 120]),
        ],
        "readings": {
            "packet": {"rtt_ms": 108, "buffer": 50, "start_s": 12.0},
            "rtt": {"buffer": 50, "start_s": 12.0},
        },
        "monitor": {"max_in_flight_age_s": 5},
    },
}


def tiny_config() -> dict[str, Any]:
    """The whole validated config with the tiny vegas block."""
    return configuration.validate(merged(TINY))


def point(cfg: dict[str, Any], seed: int = 1, **match: Any) -> RunPoint:
    """The first run of the vegas grid with this seed and these swept values."""
    return next(
        p
        for p in STUDY.runs(cfg["vegas"])
        if p.seed == seed and all(p.get(k) == v for k, v in match.items())
    )
