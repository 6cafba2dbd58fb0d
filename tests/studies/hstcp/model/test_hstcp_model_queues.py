"""The model's queues: M/M/1/K closed forms and the RED chain (model.queues)."""

from __future__ import annotations

import math

import hstcp_reference as ref
import numpy as np
import pytest

from bufrepro.studies.hstcp.model import queues as qu


def _mm1k(rho: float, k: int) -> qu.QueueState:
    return qu.queue_state(rho, k, None)


@pytest.mark.parametrize("rho", [0.1, 0.5, 0.99, 1.0, 1.0 + 1e-12, 1.7, 5.0])
@pytest.mark.parametrize("k", [1, 7, 125, 12500])
def test_reference_distribution_sums_to_one(rho: float, k: int) -> None:
    pi = ref.mm1k_distribution(rho, k)
    assert pi.shape == (k + 1,) and np.all(pi >= 0)
    assert float(pi.sum()) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("rho", [0.3, 0.9, 1.4])
def test_mm1k_closed_forms(rho: float) -> None:
    k = 20
    n = np.arange(k + 1)
    closed = rho**n * (1 - rho) / (1 - rho ** (k + 1))
    np.testing.assert_allclose(ref.mm1k_distribution(rho, k), closed, rtol=1e-12)
    state = _mm1k(rho, k)
    assert math.exp(state.log_p) == pytest.approx(closed[-1], rel=1e-12)
    mean = rho / (1 - rho) - (k + 1) * rho ** (k + 1) / (1 - rho ** (k + 1))
    assert state.mean_number == pytest.approx(mean, rel=1e-10)


def test_mm1k_uniform_at_rho_one_and_empty_at_zero() -> None:
    k = 50
    assert math.exp(_mm1k(1.0, k).log_p) == pytest.approx(1 / (k + 1))
    assert _mm1k(1.0, k).mean_number == pytest.approx(k / 2)
    assert _mm1k(0.0, k) == qu.QueueState(log_p=-math.inf, mean_number=0.0)


@pytest.mark.parametrize(
    "rho", [1e-200, 0.5, 0.999, 1 - 1e-6, 1 - 1e-9, 1 - 1e-13, 1 + 1e-13, 1 + 1e-9, 1 + 1e-4, 3.0]
)
@pytest.mark.parametrize("k", [1, 3, 125, 12500])
def test_mm1k_closed_forms_stable_near_rho_one(rho: float, k: int) -> None:
    pi = ref.mm1k_distribution(rho, k)
    mean = float(np.dot(np.arange(k + 1), pi))
    state = _mm1k(rho, k)
    assert state.mean_number == pytest.approx(mean, rel=1e-9, abs=1e-300)
    assert math.exp(state.log_p) == pytest.approx(float(pi[-1]), rel=1e-9, abs=1e-300)


def test_mm1k_large_buffer_approaches_mm1() -> None:
    assert _mm1k(0.5, 2000).mean_number == pytest.approx(1.0, rel=1e-12)
    assert math.exp(_mm1k(0.5, 2000).log_p) < 1e-300


# ---------------------------------------------------------------- RED


def test_red_drop_curve_shape() -> None:
    min_th, max_th = qu.red_thresholds(12500, 1250)
    assert (min_th, max_th) == pytest.approx((500.0, 1250.0))
    d = qu.red_drop_curve(1250, min_th, max_th)
    assert np.all(d[:501] == 0)
    assert d[875] == pytest.approx(0.05)
    assert d[1249] == pytest.approx(0.1 * 749 / 750)
    assert d[1250] == 1.0  # full buffer
    assert np.all(np.diff(d) >= 0)
    # buffer larger than BDP: thresholds from BDP, gentle ramp to 1 at 2 * max_th
    min_th, max_th = qu.red_thresholds(100, 300)
    assert (min_th, max_th) == pytest.approx((40.0, 100.0))
    d = qu.red_drop_curve(300, min_th, max_th)
    assert d[150] == pytest.approx(0.1 + 0.9 * 0.5)
    assert np.all(d[200:] == 1.0)
    d_hard = qu.red_drop_curve(300, min_th, max_th, qu.RedParams(gentle=False))
    assert d_hard[101] == 1.0


@pytest.mark.parametrize("thinned", [True, False])
def test_red_chain_matches_its_birth_death_balance(thinned: bool) -> None:
    d = qu.red_drop_curve(100, 40.0, 100.0)
    rho = 0.98
    red = qu.RedParams(state_dependent_arrivals=thinned)
    pi = ref.red_distribution(rho, d, thinned)
    assert float(pi.sum()) == pytest.approx(1.0)
    # birth-death balance with thinned arrivals (plain M/M/1/K when not thinned)
    step = rho * (1 - d[:-1]) if thinned else np.full(100, rho)
    np.testing.assert_allclose(pi[1:], pi[:-1] * step, rtol=1e-10)
    if not thinned:
        np.testing.assert_allclose(pi, ref.mm1k_distribution(rho, 100), rtol=1e-10)
    state = qu.queue_state(rho, 100, qu.red_tables(d, red))
    assert math.exp(state.log_p) == pytest.approx(float(np.dot(pi, d)), rel=1e-10)
    assert state.mean_number == pytest.approx(float(np.dot(np.arange(101), pi)), rel=1e-10)
