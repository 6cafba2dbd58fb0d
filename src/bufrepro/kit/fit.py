"""A reading judged metric by metric: median row error, bootstrap interval, against a threshold."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bufrepro.kit import distance

# The bootstrap's replicates and its two-sided confidence: percentile intervals (Efron &
# Tibshirani 1993, ch. 13); 2000 replicates keep a 95 % bound's Monte Carlo error near 1 % of
# its width, and the seed fixes them so that a rerun writes the same tables.
REPLICATES = 2000
CONFIDENCE = 0.95
SEED = 20260


@dataclass(frozen=True)
class Judged:
    """One metric of one reading: its median row error (log), the interval, the threshold,
    how many (distinct) rows and seeds, and the outcome: within, beyond or spans."""

    metric: str
    error: float
    low: float
    high: float
    threshold: float
    rows: int
    seeds: int
    outcome: str


def outcome(low: float, high: float, threshold: float) -> str:
    """within: the whole interval at or below the threshold; beyond: wholly above; else spans."""
    if high <= threshold + 1e-12:
        return "within"
    if low > threshold + 1e-12:
        return "beyond"
    return "spans"


def _medians(err: np.ndarray, rng: np.random.Generator, replicates: int) -> np.ndarray:
    """Each replicate's median over rows drawn with replacement from its own row errors."""
    k = err.shape[1]
    pick = rng.integers(0, k, size=(replicates, k))
    drawn = np.take_along_axis(err, pick, axis=1)
    return np.asarray(np.median(drawn, axis=1), dtype=float)


def judge(
    diff: pd.DataFrame,
    per_seed: np.ndarray | None,
    metrics: Sequence[str],
    rules: Mapping[str, distance.Rule],
    replicates: int = REPLICATES,
    seed: int = SEED,
) -> list[Judged]:
    """Each metric present in the diff judged on its own: the median of its rows' errors
    (distance.log_errors), and a percentile bootstrap interval that redraws the seeds (the same
    draw for every row: seeds pair across cells) and then the rows. `per_seed` holds each row's
    mean of one seed (rows x seeds, aligned with the diff; None: rows only)."""
    rng = np.random.default_rng(seed)
    paper = pd.to_numeric(diff["published"], errors="coerce").to_numpy(dtype=float)
    ours = pd.to_numeric(diff["ours_mean"], errors="coerce").to_numpy(dtype=float)
    event, factor, side = distance.row_rules(diff, rules)
    if per_seed is not None and per_seed.shape[1] > 1:
        cols = rng.integers(0, per_seed.shape[1], size=(replicates, per_seed.shape[1]))
        means = np.stack([np.nanmean(per_seed[:, c], axis=1) for c in cols])
    else:
        means = np.broadcast_to(ours, (replicates, len(ours)))
    met = ((side > 0) & (means >= paper)) | ((side < 0) & (means <= paper))
    reps = distance.errors(means, paper, event, factor, met)
    point = distance.log_errors(diff, rules).to_numpy(dtype=float)
    out = []
    alpha = (1.0 - CONFIDENCE) / 2.0
    seeds = 1 if per_seed is None else int(per_seed.shape[1])
    for metric in metrics:
        rows = np.flatnonzero((diff["metric"] == metric).to_numpy() & ~np.isnan(point))
        if not len(rows):
            continue
        medians = _medians(reps[:, rows], rng, replicates)
        low = float(np.quantile(medians, alpha, method="lower"))
        high = float(np.quantile(medians, 1.0 - alpha, method="higher"))
        error = float(np.median(point[rows]))
        thr = rules.get(metric, distance.PLAIN).threshold
        out.append(Judged(metric, error, low, high, thr, len(rows), seeds, outcome(low, high, thr)))
    return out


def overall(judged: Sequence[Judged]) -> str:
    """A reading's outcome: reproduces (every metric within), fails (some metric beyond), else
    spans (an interval spans its threshold: not judged); "none" without a metric."""
    if not judged:
        return "none"
    if all(j.outcome == "within" for j in judged):
        return "reproduces"
    if any(j.outcome == "beyond" for j in judged):
        return "fails"
    return "spans"


def worst(judged: Sequence[Judged]) -> float:
    """The headline figure: the largest of the metrics' median errors (log; NaN without one)."""
    return max((j.error for j in judged), default=math.nan)
