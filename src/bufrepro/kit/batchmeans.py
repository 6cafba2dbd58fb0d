"""An interval from one long run's series by non-overlapping batch means (Law & Kelton)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bufrepro.kit import precision, transient

# Batch means are taken as independent once the lag-1 autocorrelation of the batch means is at
# most this (Law & Kelton 2000, section 9.5.3, test the batch means' lag-1 correlation; at 0.1
# the t interval's variance is understated by at most about (1 + 2 x 0.1) = 1.2, a 95 % interval
# then covering about 93 %).
RHO_MAX = 0.1
# Fewest batches an interval is made from: fewer and the lag-1 estimate is noise (its standard
# error is about 1 / sqrt(k), 0.22 at 20) and the t quantile grows (Schmeiser 1982: 10 to 30).
MIN_BATCHES = 20


@dataclass(frozen=True)
class BatchInterval:
    """A series' mean with its t interval over `batches` batch means of `size` observations;
    `lag1`, the batch means' lag-1 autocorrelation; `independent`, whether it reached RHO_MAX
    with at least MIN_BATCHES batches (else the interval is too narrow to trust: flag it)."""

    mean: float
    half_width: float
    batches: int
    size: int
    lag1: float
    independent: bool

    @property
    def relative(self) -> float:
        """The half-width over |mean| (inf about a mean of 0)."""
        if self.half_width == 0:
            return 0.0
        return self.half_width / abs(self.mean) if self.mean else math.inf


def lag1(values: Sequence[float] | np.ndarray) -> float:
    """The lag-1 sample autocorrelation: sum (z_i - m)(z_i+1 - m) / sum (z_i - m)^2 (0 when the
    values do not vary, nan below 3 values)."""
    z = np.asarray(values, dtype=float)
    if len(z) < 3:
        return math.nan
    if z.min() == z.max():  # exactly: their mean's rounding would make a spread of its own
        return 0.0
    d = z - z.mean()
    ss = float((d * d).sum())
    return float((d[:-1] * d[1:]).sum()) / ss if ss > 0 else 0.0


def batch_size(series: Sequence[float], rho_max: float = RHO_MAX) -> int:
    """The smallest batch size, doubled from 1, whose batch means' lag-1 autocorrelation is at
    most rho_max while at least MIN_BATCHES batches remain; the largest such size (the series
    over MIN_BATCHES) when none is small enough, and 0 for a series too short for any."""
    n = len(series)
    if n < MIN_BATCHES:
        return 0
    size = 1
    while True:
        if lag1(transient.batch_means(series, size)) <= rho_max:
            return size
        if n // (size * 2) < MIN_BATCHES:
            return size
        size *= 2


def interval(
    series: Sequence[float],
    confidence: float = precision.CONFIDENCE,
    rho_max: float = RHO_MAX,
) -> BatchInterval:
    """The batch-means interval of a stationary series' mean (cut its transient first: kit
    .transient.mser5): batches of batch_size(series), a trailing partial batch left out, the t
    interval over their means with k - 1 degrees of freedom."""
    size = batch_size(series, rho_max)
    if size == 0:
        return BatchInterval(math.nan, math.nan, 0, 0, math.nan, False)
    means = transient.batch_means(series, size)
    mean, half = precision.t_half_width(means.tolist(), confidence)
    rho = lag1(means)
    return BatchInterval(mean, half, len(means), size, rho, rho <= rho_max)
