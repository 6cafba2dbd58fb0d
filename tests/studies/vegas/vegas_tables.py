"""Synthetic vegas tables for tests: our cells made equal to the paper's Tables II-IV."""

from __future__ import annotations

from typing import Any

import pandas as pd

from bufrepro.studies.vegas.tables import METRICS, TABLES, published_wide, reading_of
from conftest import REPO


def published() -> pd.DataFrame:
    return pd.read_csv(REPO / "published" / "vegas.csv")


def paper_cells(block: dict[str, Any]) -> pd.DataFrame:
    """Tables II-IV as cells of our grid (each in its configured reading), our metric names."""
    parts = [published_wide(published(), t, reading_of(block, t)) for t in TABLES]
    wide = pd.concat(parts, ignore_index=True).rename(columns=METRICS)
    return wide[
        ["setup", "variant", "packet_bytes", "rtt_ms", "buffer", "start_s", *METRICS.values()]
    ]


def summary_of(cells: pd.DataFrame) -> pd.DataFrame:
    """A summary.csv with the cells' values as means over 10 seeds, +-1 as the 95% CI."""
    keys = ["setup", "variant", "packet_bytes", "rtt_ms", "buffer", "start_s"]
    long = cells.melt(id_vars=keys, var_name="metric", value_name="mean")
    long["rtt_ms"] = long["rtt_ms"].astype(float)
    return long.assign(n=10, sd=0.0, ci_low=long["mean"] - 1, ci_high=long["mean"] + 1)[
        [*keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"]
    ]


def runs_of(cells: pd.DataFrame) -> pd.DataFrame:
    """A runs.csv with the cells' values under each of 10 seeds (summary_of's n=10, sd 0)."""
    return pd.concat([cells.assign(study="vegas", seed=s) for s in range(1, 11)], ignore_index=True)


def series() -> pd.DataFrame:
    """A throughput series of two RTT runs (seed 1), 3 bins each."""
    rows = [
        {"setup": "rtt", "variant": "spacing", "packet_bytes": 512, "rtt_ms": r, "buffer": 50,
         "start_s": 1.0, "seed": 1, "time_s": float(t), "throughput_kbps": 100.0 * t + r}
        for r in (60, 120) for t in range(3)
    ]  # fmt: skip
    return pd.DataFrame(rows)
