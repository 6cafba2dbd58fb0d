"""Batch means against AR(1) series of known mean, whose naive interval is far too narrow."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import signal

from bufrepro.kit import batchmeans, precision

MEAN, PHI, N = 5.0, 0.9, 20_000


def _ar1(rng: np.random.Generator, n: int = N, phi: float = PHI) -> np.ndarray:
    """x_t = phi x_t-1 + e_t, e ~ N(0, 1), started in its stationary law (no transient), + MEAN."""
    e = rng.normal(size=n)
    e[0] /= math.sqrt(1.0 - phi * phi)  # x_0 ~ N(0, 1 / (1 - phi^2))
    return MEAN + signal.lfilter([1.0], [1.0, -phi], e)


def test_lag1_by_hand() -> None:
    # 1, 2, 3, 4: deviations -1.5, -0.5, 0.5, 1.5; (0.75 - 0.25 + 0.75) / 5 = 0.25
    assert batchmeans.lag1([1, 2, 3, 4]) == pytest.approx(0.25)
    assert batchmeans.lag1([2, 2, 2]) == 0.0 and math.isnan(batchmeans.lag1([1, 2]))


def test_the_interval_covers_the_mean_where_the_naive_one_does_not() -> None:
    rng = np.random.default_rng(51)
    naive = batch = flagged = 0
    widths = []
    reps = 200
    for _ in range(reps):
        x = _ar1(rng)
        m, h = precision.t_half_width(list(x))  # every observation as if independent
        naive += abs(m - MEAN) <= h
        iv = batchmeans.interval(x)
        assert iv.batches >= batchmeans.MIN_BATCHES
        flagged += not iv.independent  # the lag-1 estimate's own noise: a few false alarms
        batch += abs(iv.mean - MEAN) <= iv.half_width
        widths.append(iv.half_width)
    # the naive interval is sqrt((1 + phi) / (1 - phi)) = 4.4 times too narrow: covers about 35 %
    assert naive / reps < 0.5
    assert batch / reps >= 0.88 and flagged / reps <= 0.1
    # and the batch interval is about as wide as the true one: 1.96 sd(mean), for AR(1)
    # sd(mean) = sqrt(1 / (1 - phi^2) x (1 + phi) / (1 - phi) / n)
    true = 1.96 * math.sqrt((1 + PHI) / (1 - PHI) / (1 - PHI * PHI) / N)
    assert 0.85 < float(np.median(widths)) / true < 1.2


def test_independent_observations_need_no_batching() -> None:
    x = np.random.default_rng(2).normal(MEAN, 1.0, 2000)
    iv = batchmeans.interval(x)
    assert iv.size == 1 and iv.batches == 2000 and iv.independent
    assert (iv.mean, iv.half_width) == pytest.approx(precision.t_half_width(list(x)))


def test_a_run_too_short_for_its_correlation_is_flagged() -> None:
    x = _ar1(np.random.default_rng(3), n=400, phi=0.999)
    iv = batchmeans.interval(x)
    assert not iv.independent and iv.batches >= batchmeans.MIN_BATCHES
    assert iv.lag1 > batchmeans.RHO_MAX


def test_too_short_for_any_interval() -> None:
    iv = batchmeans.interval([1.0] * (batchmeans.MIN_BATCHES - 1))
    assert iv.batches == 0 and not iv.independent and math.isnan(iv.half_width)
    flat = batchmeans.interval([0.9] * 100)
    assert flat.half_width == 0.0 and flat.relative == 0.0
