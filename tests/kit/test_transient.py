"""MSER-5 on synthetic series with a known transient, against the rule's direct definition."""

from __future__ import annotations

import numpy as np
import pytest

from bufrepro.kit import transient


def _direct(batches: np.ndarray) -> np.ndarray:
    """White's MSER(d), term by term: sum over j >= d of (Z_j - mean(Z_d..))^2 / (b - d)^2."""
    b = len(batches)
    return np.array(
        [((batches[d:] - batches[d:].mean()) ** 2).sum() / (b - d) ** 2 for d in range(b - 1)]
    )


def _series(
    rng: np.random.Generator, n: int, settle: int, start: float, level: float
) -> np.ndarray:
    """A start-up from `start` that reaches `level` linearly at observation `settle`, then noise
    around it (a utilisation climbing while the flows ramp up, say)."""
    ramp = np.concatenate([np.linspace(start, level, settle), np.full(n - settle, level)])
    return ramp + rng.normal(0.0, 0.02, n)


def test_the_statistic_is_the_direct_definition() -> None:
    rng = np.random.default_rng(7)
    batches = transient.batch_means(rng.normal(size=203))
    assert len(batches) == 40  # the trailing 3 observations make no batch
    assert np.allclose(transient.mser_statistic(batches), _direct(batches), rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("settle", [50, 150, 300])
def test_a_known_transient_is_found_and_cut(settle: int) -> None:
    rng = np.random.default_rng(settle)
    series = _series(rng, 1000, settle, 0.3, 0.9)
    found = transient.mser5(series)
    assert found.settled
    assert found.index % transient.BATCH == 0
    # within a few batches of the true end: the ramp's last steps are inside the noise
    assert settle - 40 <= found.index <= settle + 10
    kept = series[found.index :]
    assert abs(kept.mean() - 0.9) < 0.005 < abs(series.mean() - 0.9)


def test_a_stationary_series_keeps_nearly_all_of_it() -> None:
    found = transient.mser5(np.random.default_rng(1).normal(0.9, 0.02, 600))
    assert found.settled and found.share < 0.1


def test_a_series_still_climbing_at_its_end_is_flagged() -> None:
    rng = np.random.default_rng(3)
    series = _series(rng, 400, 400, 0.3, 0.9)  # the start-up lasts the whole run
    found = transient.mser5(series)
    assert not found.settled


def test_too_short_to_judge() -> None:
    found = transient.mser5([0.5] * 19)
    assert found == transient.Truncation(0, 19, False)


def test_the_window_starts_at_the_later_of_warmup_and_transient() -> None:
    rng = np.random.default_rng(11)
    series = _series(rng, 300, 100, 0.2, 0.9)
    times = np.arange(300) * 0.1  # a sample every 100 ms
    start, found = transient.window_start(times, series, warmup=2.0)
    assert found.settled and start == pytest.approx(times[found.index]) and start > 2.0
    start, _ = transient.window_start(times, series, warmup=25.0)
    assert start == 25.0
