"""Shared by the ramya tests: a tiny grid (real ns-2 in seconds), a reading, synthetic tables."""

from __future__ import annotations

from typing import Any

import pandas as pd

from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import configuration
from bufrepro.studies.ramya import STUDY
from conftest import NS2_PREFIX, merged

THRESHOLDS: dict[str, float] = {
    "slight_frac": 0.05,
    "sharp_factor": 5,
    "knee_frac": 0.95,
    "optimum_low": 3,
    "optimum_high": 6,
    "drop_share_low": 0.01,
    "drop_share_high": 0.03,
    "tolerate_frac": 0.8,
    "remedy_goodput_frac": 0.95,
    "remedy_rtt_frac": 0.5,
    "fit_frac": 0.25,
    "holds_frac": 0.9,
}
READING = {"tcp": "Newreno", "bottleneck_mbps": 1.0, "rwnd_bytes": 102400, "delay_scale": 1.0}


def sweep(name: str, setup: str, buffers: list[int], **over: Any) -> dict[str, Any]:
    """One sweep of the grid: one setup, NewReno, the table's B2, a 100 KB window, x1 delays."""
    out: dict[str, Any] = {
        "name": name,
        "setup": [setup],
        "tcp": ["Newreno"],
        "bottleneck_mbps": [1.0 if setup == "table5" else 0.5],
        "rwnd_bytes": [102400],
        "delay_scale": [1.0],
        "buffer": buffers,
    }
    out.update(over)
    return out


# A grid small enough for real ns-2 runs in seconds.
TINY: dict[str, Any] = {
    "studies": ["ramya"],
    # The repository's patched build (see conftest.TINY).
    "backends": {"ns2": {"prefix": str(NS2_PREFIX)}},
    "ramya": {
        "seeds": [1, 2],
        "setups": {
            "table1": {"duration_s": 5, "warmup_s": 0, "ping": False},
            "table5": {"duration_s": 5, "warmup_s": 0, "ping": False},
            "latency": {"duration_s": 5, "warmup_s": 0, "ping": True},
        },
        "grid": [
            sweep("table1", "table1", [10, 100]),
            sweep("table5", "table5", [1, 12]),
            sweep("ping", "latency", [10, 100]),
            sweep("rwnd", "latency", [100], rwnd_bytes=[4096, 102400]),
        ],
        "readings": {
            "table1": {"setup": "table1", **READING, "bottleneck_mbps": 0.5},
            "table5": {"setup": "table5", **READING},
        },
    },
}


def tiny_config() -> dict[str, Any]:
    """The validated config with the tiny ramya grid."""
    return configuration.validate(merged(TINY))


def point(cfg: dict[str, Any], setup: str, buffer: int, seed: int, **match: Any) -> RunPoint:
    """The run of the config's ramya grid with this setup, buffer, seed (and other values)."""
    return next(
        p
        for p in STUDY.runs(cfg["ramya"])
        if p.get("setup") == setup
        and p.get("buffer") == buffer
        and p.seed == seed
        and all(p.get(k) == v for k, v in match.items())
    )


def synthetic_summary(buffers_t1: list[int], buffers_t5: list[int]) -> pd.DataFrame:
    """A summary with every reported metric of the configured readings (n = 3, CI +-1%)."""
    rows = []
    for setup, bw, buffers in (("table1", 0.5, buffers_t1), ("table5", 1.0, buffers_t5)):
        for b in buffers:
            values = {
                "tcp_goodput_kbps": 440.0 if setup == "table1" else 900.0,
                "tcp_throughput_kbps": 970.0,
                "tcp_rtt_s_mean": 0.03 + 0.0045 * b,
                "tcp_drops_total": 100.0,
                "tcp_loss_rate": 0.01,
                "link_queue_avg_pkts": 0.75 * b,
            }
            for m, v in values.items():
                rows.append(
                    {"setup": setup, **READING, "bottleneck_mbps": bw, "buffer": b, "metric": m,
                     "n": 3, "mean": v, "sd": 0.0, "ci_low": 0.99 * v, "ci_high": 1.01 * v}
                )  # fmt: skip
    return pd.DataFrame(rows)
