"""Shared by the hstcp tests: synthetic summary and model tables."""

from __future__ import annotations

import pandas as pd


def summary_table(
    util: dict[float, float],
    jain: dict[float, float] | None = None,
    scen: str = "s1",
    queue: str = "DropTail",
) -> pd.DataFrame:
    rows = []
    for f, u in util.items():
        for metric, v in (
            ("link_utilisation", u),
            ("loss_rate", 1e-3),
            ("jain_index", (jain or {}).get(f, 0.9)),
        ):
            rows.append(
                {
                    "scenario": scen,
                    "queue": queue,
                    "buffer_frac": f,
                    "metric": metric,
                    "n": 3,
                    "mean": v,
                    "sd": 0.01,
                    "ci_low": v - 0.01,
                    "ci_high": v + 0.01,
                }
            )
    return pd.DataFrame(rows)


def model_for(summary: pd.DataFrame, shift: float = 0.0) -> pd.DataFrame:
    m = summary[summary["metric"] == "link_utilisation"]
    return pd.DataFrame(
        {
            "scenario": m["scenario"],
            "queue": m["queue"],
            "buffer_frac": m["buffer_frac"],
            "utilisation": m["mean"] + shift,
            "loss_rate": 1e-3,
            "on_grid": True,
        }
    )


GOOD = {0.01: 0.6, 0.02: 0.75, 0.05: 0.86, 0.1: 0.93, 0.2: 0.975, 0.5: 0.99, 1.0: 0.995}
