"""Summary statistics over seeds: mean, sd, n, the 95% CI of the mean and the 95% PI of a run."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
from scipy import special

CONFIDENCE = 0.95


def mean_sd(values: Sequence[float]) -> tuple[int, float, float]:
    """(n, mean, sample sd) of the values that are not nan; nan where n is too small."""
    clean = [v for v in values if not math.isnan(v)]
    n = len(clean)
    mean = sum(clean) / n if n else math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in clean) / (n - 1)) if n > 1 else math.nan
    return n, mean, sd


def t_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Student-t confidence interval of the mean; (nan, nan) with fewer than two values."""
    n, mean, sd = mean_sd(values)
    if n < 2:
        return (math.nan, math.nan)
    half = t_quantile(n, confidence) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def t_quantile(n: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student-t quantile for n values (n - 1 degrees of freedom); nan below 2."""
    if n < 2:
        return math.nan
    # scipy.stats.t.ppf's own kernel (t._ppf is special.stdtrit): the same number, without
    # importing scipy.stats (about 1 s of CPU in every job that reads this module).
    return float(special.stdtrit(n - 1, 0.5 + confidence / 2))


def prediction_half_width(sd: float, n: int, confidence: float = CONFIDENCE) -> float:
    """Half-width of the t prediction interval for one new run: t * sd * sqrt(1 + 1/n).

    The CI of the mean (t * sd / sqrt(n)) says where our mean lies; a published value that is
    itself a single run should be judged by where one run of ours would lie: this interval.
    nan with fewer than two values or no sd.
    """
    if n < 2 or math.isnan(sd):
        return math.nan
    return t_quantile(n, confidence) * sd * math.sqrt(1.0 + 1.0 / n)


def prediction_interval(
    values: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """Student-t prediction interval for one new run; (nan, nan) with fewer than two values."""
    n, mean, sd = mean_sd(values)
    if n < 2:
        return (math.nan, math.nan)
    half = prediction_half_width(sd, n, confidence)
    return (mean - half, mean + half)


def standardized_residual(published: float, mean: float, sd: float) -> float:
    """z = (published - mean) / sd: how many of our runs' sds a published value lies away;
    nan when sd is 0 or unknown (deterministic cells: compare by in_pi instead)."""
    if math.isnan(sd) or sd == 0 or math.isnan(mean):
        return math.nan
    return (published - mean) / sd


def summarise(runs: pd.DataFrame, keys: Sequence[str], metrics: Sequence[str]) -> pd.DataFrame:
    """Long table: keys..., metric, n, mean, sd, ci_low, ci_high (one row per cell and metric)."""
    rows = []
    for cell, group in runs.groupby(list(keys), sort=True):
        cell_values = cell if isinstance(cell, tuple) else (cell,)
        for metric in metrics:
            values = [float(v) for v in group[metric] if not pd.isna(v)]
            n, mean, sd = mean_sd(values)
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


def wide_column(summary: pd.DataFrame, keys: Sequence[str], column: str) -> pd.DataFrame:
    """One row per cell, one column per metric holding its `column` (e.g. ci_low)."""
    wide = summary.pivot_table(index=list(keys), columns="metric", values=column, sort=True)
    wide.columns.name = None
    return wide.reset_index()
