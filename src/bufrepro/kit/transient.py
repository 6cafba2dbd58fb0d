"""A run's initial transient, found in its own output series by MSER-5 (White 1997)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# MSER-5: the series is averaged in batches of this many observations before the rule is applied
# (White, Cobb & Spratt 2000 found 5 the batch size that makes MSER robust to noisy series).
BATCH = 5
# The rule looks for its minimum in the first half of the batches only (White 1997; Hoad,
# Robinson & Davies 2010): near the series' end MSER(d) rests on a few batches and can drop
# spuriously. A minimum on the search's last batch means the statistic was still falling when
# the search ended: the series has not settled in its first half, and the run is flagged
# instead of truncated.
SEARCH_SHARE = 0.5


@dataclass(frozen=True)
class Truncation:
    """Where a series' transient ends: `index`, the first observation of the steady state
    (a multiple of BATCH), and whether it settled within the run's first half."""

    index: int
    observations: int
    settled: bool

    @property
    def share(self) -> float:
        """The transient's share of the series (0 when nothing is truncated)."""
        return self.index / self.observations if self.observations else 0.0


def batch_means(series: Sequence[float], size: int = BATCH) -> np.ndarray:
    """Means of consecutive non-overlapping batches (a trailing partial batch is left out)."""
    values = np.asarray(series, dtype=float)
    whole = len(values) // size * size
    means: np.ndarray = values[:whole].reshape(-1, size).mean(axis=1)
    return means


def mser_statistic(batches: np.ndarray) -> np.ndarray:
    """MSER(d) for every d = 0..b-2: the squared deviations of batches d..b-1 from their mean,
    over (b - d) squared; computed from suffix sums, exactly the direct sum's definition."""
    b = len(batches)
    suffix = np.cumsum(batches[::-1])[::-1]
    suffix_sq = np.cumsum((batches**2)[::-1])[::-1]
    count = np.arange(b, 0, -1, dtype=float)
    ss = suffix_sq - suffix**2 / count  # sum of (z - mean)^2 over batches d..b-1
    stat: np.ndarray = (np.maximum(ss, 0.0) / count**2)[: b - 1]
    return stat


def mser5(series: Sequence[float], batch: int = BATCH) -> Truncation:
    """The MSER-5 truncation point of `series` (observations at equal time steps): the d that
    minimises MSER(d) over the first half of the batches. A series too short for four batches
    cannot be judged and is returned unsettled with nothing truncated."""
    batches = batch_means(series, batch)
    n = len(series)
    if len(batches) < 4:
        return Truncation(0, n, False)
    stat = mser_statistic(batches)
    limit = max(1, int(len(batches) * SEARCH_SHARE))
    best = int(np.argmin(stat[:limit]))  # the first of equal minima: the least truncation
    settled = limit >= 2 and best < limit - 1
    return Truncation(best * batch, n, settled)


def window_start(
    times: Sequence[float], values: Sequence[float], warmup: float
) -> tuple[float, Truncation]:
    """The judged window's start for a series whose i-th value covers the interval starting at
    `times[i]`: the later of the configured warm-up and the start of the steady state MSER-5
    finds in the whole series."""
    found = mser5(values)
    detected = float(times[found.index]) if found.index < len(times) else float(times[-1])
    return max(float(warmup), detected), found
