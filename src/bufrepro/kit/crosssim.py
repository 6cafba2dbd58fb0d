"""The cross-simulator table: per cell and metric, two simulators' means and 95 % intervals."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

# Two means "agree" when their intervals overlap or they are within this fraction of each other.
WITHIN_FRAC = 0.10


def agreement(
    a_mean: float, a_low: float, a_high: float, b_mean: float, b_low: float, b_high: float
) -> str:
    """How two results agree: "overlap" (95 % intervals overlap), "within 10%" (means), or ""."""
    if max(a_low, b_low) <= min(a_high, b_high):
        return "overlap"
    scale = max(abs(a_mean), abs(b_mean))
    if scale == 0 or abs(a_mean - b_mean) <= WITHIN_FRAC * scale:
        return "within 10%"
    return ""


def table(
    first: pd.DataFrame,
    second: pd.DataFrame,
    keys: Sequence[str],
    metrics: Sequence[str],
    names: tuple[str, str],
) -> pd.DataFrame:
    """keys..., metric, <a>_mean, <a>_ci_low, <a>_ci_high, <b>_..., ratio (b / a), agree, how.

    `first` and `second` are two simulators' summary tables (kit.stats.summarise); only cells
    and metrics both have are compared.
    """
    a, b = names
    cols = ["mean", "ci_low", "ci_high"]
    left = first[first["metric"].isin(metrics)][[*keys, "metric", *cols]]
    right = second[second["metric"].isin(metrics)][[*keys, "metric", *cols]]
    both = left.merge(right, on=[*keys, "metric"], suffixes=(f"_{a}", f"_{b}"))
    both = both.rename(columns={f"{c}_{s}": f"{s}_{c}" for c in cols for s in names})
    both["ratio"] = [
        (y / x) if x else float("nan")
        for x, y in zip(both[f"{a}_mean"], both[f"{b}_mean"], strict=True)
    ]
    both["how"] = [
        agreement(*(row[f"{s}_{c}"] for s in names for c in cols)) for _, row in both.iterrows()
    ]
    both["agree"] = both["how"] != ""
    order = {m: i for i, m in enumerate(metrics)}
    both["_m"] = both["metric"].map(order)
    both = both.sort_values([*keys, "_m"], kind="mergesort").drop(columns="_m")
    return both.reset_index(drop=True)


def counts(cross: pd.DataFrame, study: str, metrics: Sequence[str]) -> pd.DataFrame:
    """Per metric: cells compared, how many agree, how many do not (the summary's counts)."""
    rows = []
    for metric in metrics:
        part = cross[cross["metric"] == metric]
        if part.empty:
            continue
        agree = int(part["agree"].sum())
        rows.append(
            {
                "study": study,
                "metric": metric,
                "cells": len(part),
                "agree": agree,
                "disagree": len(part) - agree,
            }
        )
    return pd.DataFrame(rows, columns=["study", "metric", "cells", "agree", "disagree"])
