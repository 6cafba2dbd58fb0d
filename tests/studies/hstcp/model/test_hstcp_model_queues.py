"""The model's queues: M/M/1/K closed forms and the RED chain (model.queues)."""

from __future__ import annotations

import numpy as np
import pytest

from bufrepro.studies.hstcp.model import queues as qu


def test_invalid_queue_raises() -> None:
    with pytest.raises(ValueError):
        qu.mm1k_distribution(0.5, 0)


# ---------------------------------------------------------------- M/M/1/K


@pytest.mark.parametrize("rho", [0.0, 0.1, 0.5, 0.99, 1.0, 1.0 + 1e-12, 1.7, 5.0])
@pytest.mark.parametrize("k", [1, 7, 125, 12500])
def test_mm1k_distribution_sums_to_one(rho: float, k: int) -> None:
    pi = qu.mm1k_distribution(rho, k)
    assert pi.shape == (k + 1,)
    assert np.all(pi >= 0)
    assert float(pi.sum()) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("rho", [0.3, 0.9, 1.4])
def test_mm1k_closed_forms(rho: float) -> None:
    k = 20
    n = np.arange(k + 1)
    closed = rho**n * (1 - rho) / (1 - rho ** (k + 1))
    np.testing.assert_allclose(qu.mm1k_distribution(rho, k), closed, rtol=1e-12)
    assert qu.mm1k_blocking(rho, k) == pytest.approx(closed[-1], rel=1e-12)
    mean = rho / (1 - rho) - (k + 1) * rho ** (k + 1) / (1 - rho ** (k + 1))
    assert qu.mm1k_mean_number(rho, k) == pytest.approx(mean, rel=1e-10)
    mu = 125000.0
    lam_eff = rho * mu * (1 - closed[-1])
    assert qu.mm1k_mean_sojourn(rho, k, mu) == pytest.approx(mean / lam_eff, rel=1e-10)
    assert qu.mm1k_mean_wait(rho, k, mu) == pytest.approx(mean / lam_eff - 1 / mu, rel=1e-10)


def test_mm1k_uniform_at_rho_one() -> None:
    k = 50
    np.testing.assert_allclose(qu.mm1k_distribution(1.0, k), np.full(k + 1, 1 / (k + 1)))
    assert qu.mm1k_blocking(1.0, k) == pytest.approx(1 / (k + 1))
    assert qu.mm1k_mean_number(1.0, k) == pytest.approx(k / 2)


@pytest.mark.parametrize(
    "rho", [1e-200, 0.5, 0.999, 1 - 1e-6, 1 - 1e-9, 1 - 1e-13, 1 + 1e-13, 1 + 1e-9, 1 + 1e-4, 3.0]
)
@pytest.mark.parametrize("k", [1, 3, 125, 12500])
def test_mm1k_closed_forms_stable_near_rho_one(rho: float, k: int) -> None:
    pi = qu.mm1k_distribution(rho, k)
    mean = float(np.dot(np.arange(k + 1), pi))
    assert qu.mm1k_mean_number(rho, k) == pytest.approx(mean, rel=1e-9, abs=1e-300)
    assert qu.mm1k_blocking(rho, k) == pytest.approx(float(pi[-1]), rel=1e-9, abs=1e-300)


def test_mm1k_large_buffer_approaches_mm1() -> None:
    assert qu.mm1k_mean_number(0.5, 2000) == pytest.approx(1.0, rel=1e-12)
    assert qu.mm1k_blocking(0.5, 2000) < 1e-300


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


def test_red_loss_matches_sum() -> None:
    d = qu.red_drop_curve(100, 40.0, 100.0)
    rho = 0.98
    pi = qu.red_distribution(rho, d)
    assert float(pi.sum()) == pytest.approx(1.0)
    # birth-death balance with thinned arrivals
    np.testing.assert_allclose(pi[1:], pi[:-1] * rho * (1 - d[:-1]), rtol=1e-10)
    assert qu.red_loss(rho, d) == pytest.approx(float(np.dot(pi, d)), rel=1e-10)
    plain = qu.RedParams(state_dependent_arrivals=False)
    np.testing.assert_allclose(qu.red_distribution(rho, d, plain), qu.mm1k_distribution(rho, 100))
