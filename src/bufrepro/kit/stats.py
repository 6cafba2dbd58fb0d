"""Summary statistics over seeds: mean, standard deviation, n and the 95% confidence interval."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
from scipy import stats as sps

CONFIDENCE = 0.95


def t_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Student-t confidence interval of the mean; (nan, nan) with fewer than two values."""
    clean = [v for v in values if not math.isnan(v)]
    n = len(clean)
    if n < 2:
        return (math.nan, math.nan)
    mean = sum(clean) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in clean) / (n - 1))
    half = float(sps.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def summarise(runs: pd.DataFrame, keys: Sequence[str], metrics: Sequence[str]) -> pd.DataFrame:
    """Long table: keys..., metric, n, mean, sd, ci_low, ci_high (one row per cell and metric)."""
    rows = []
    for cell, group in runs.groupby(list(keys), sort=True):
        cell_values = cell if isinstance(cell, tuple) else (cell,)
        for metric in metrics:
            values = [float(v) for v in group[metric] if not pd.isna(v)]
            n = len(values)
            mean = sum(values) / n if n else math.nan
            sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else math.nan
            low, high = t_interval(values)
            rows.append(
                {
                    **dict(zip(keys, cell_values, strict=True)),
                    "metric": metric,
                    "n": n,
                    "mean": mean,
                    "sd": sd,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    return pd.DataFrame(rows)


def wide_means(summary: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """One row per cell, one column per metric holding its mean."""
    wide = summary.pivot_table(index=list(keys), columns="metric", values="mean", sort=True)
    wide.columns.name = None
    return wide.reset_index()
