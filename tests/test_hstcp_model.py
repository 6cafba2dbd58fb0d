"""Tests for the Barman/Smaragdakis/Matta HSTCP buffer-sizing model."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.integrate import quad

from bufrepro import hstcp_model as hm

P = hm.DEFAULT_HSTCP
FRACTIONS = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8, 1.0]


# ---------------------------------------------------------------- response function (RFC 3649)


def test_p_low_is_reno_point() -> None:
    assert P.p_low == pytest.approx(1.5 / 38**2)
    assert hm.hstcp_p(P.w_low) == pytest.approx(P.p_low, rel=1e-12)
    assert hm.hstcp_p(P.w_high) == pytest.approx(P.p_high, rel=1e-12)


def test_a_b_at_w_low_are_reno() -> None:
    assert hm.hstcp_a(P.w_low) == pytest.approx(1.0, rel=1e-12)
    assert hm.hstcp_b(P.w_low) == pytest.approx(0.5, rel=1e-12)
    # just above w_low the HSTCP formula itself must also give ~Reno's values
    assert hm.hstcp_a(P.w_low * (1 + 1e-9)) == pytest.approx(1.0, rel=1e-6)
    assert hm.hstcp_b(P.w_low * (1 + 1e-9)) == pytest.approx(0.5, rel=1e-6)
    assert hm.hstcp_b(P.w_high) == pytest.approx(P.b_high, rel=1e-12)


@pytest.mark.parametrize(
    ("w", "a_table", "b_table"),
    [(118, 2, 0.44), (221, 3, 0.41), (347, 4, 0.38), (663, 6, 0.35), (1058, 8, 0.33)],
)
def test_matches_rfc3649_appendix_b_table(w: float, a_table: int, b_table: float) -> None:
    # RFC 3649 App. B lists the window at which a(w) reaches each integer, with b(w) to 2 dp.
    assert hm.hstcp_b(w) == pytest.approx(b_table, abs=0.006)
    assert hm.hstcp_a(w) == pytest.approx(a_table, rel=0.05)


@pytest.mark.parametrize("w", [1.0, 10.0, 38.0, 100.0, 1500.0, 83000.0, 2e5])
def test_window_inverts_loss_rate(w: float) -> None:
    assert hm.hstcp_window(hm.hstcp_p(w)) == pytest.approx(w, rel=1e-10)


def test_rfc_response_function_with_rounded_p_low() -> None:
    # RFC 3649: w = 0.12 / p^0.835, obtained with p_low rounded to 1e-3 (as the paper does).
    params = hm.HstcpParams(p_low_override=1e-3)
    assert params.slope == pytest.approx(-0.835, abs=1e-3)
    for p in (1e-4, 1e-5, 1e-6, 1e-7):
        assert hm.hstcp_window(p, params) * p**0.835 == pytest.approx(0.12, rel=0.02)


def test_invalid_inputs_raise() -> None:
    with pytest.raises(ValueError):
        hm.hstcp_window(0.0)
    with pytest.raises(ValueError):
        hm.hstcp_p(0.0)
    with pytest.raises(ValueError):
        hm.mm1k_distribution(0.5, 0)


# ---------------------------------------------------------------- throughput


@pytest.mark.parametrize("form", ["exact", "approx"])
@pytest.mark.parametrize("p", [P.p_low, 2e-3, 1e-2, 0.1, 0.5])
def test_reno_regime_equals_reno(form: hm.ThroughputForm, p: float) -> None:
    rtt = 0.12
    assert hm.throughput(p, rtt, form=form) == pytest.approx(1.22 / (rtt * math.sqrt(p)), rel=1e-12)


@pytest.mark.parametrize("form", ["exact", "approx"])
def test_hstcp_regime_beats_reno_and_is_monotone(form: hm.ThroughputForm) -> None:
    ps = np.geomspace(1e-9, 0.5, 400)
    lam = np.array([hm.throughput(float(p), 0.1, form=form) for p in ps])
    assert np.all(np.diff(lam) <= 0)
    for p in (1e-4, 1e-5, 1e-7):
        assert hm.throughput(p, 0.1, form=form) > 1.5 * hm.reno_throughput(p, 0.1)


def test_approx_is_w_over_r() -> None:
    # eq. 3 approximation: lambda = w(p) / R
    for p in (1e-4, 1e-6, P.p_high):
        assert hm.hstcp_throughput_approx(p, 0.2) == pytest.approx(hm.hstcp_window(p) / 0.2)


@pytest.mark.parametrize("p", [5e-4, 1e-5, 1e-7, 1e-8])
def test_exact_form_matches_numerical_integration(p: float) -> None:
    # Integrate the fluid ODE dw/dt = 2 w^2 b p(w) / (R (2 - b)) (b frozen, as in the paper)
    # from w_p (1 - b_p) to w_p; lambda = N_d / T_d.  Checks the closed form incl. the exponent.
    rtt = 0.1
    w_p = hm.hstcp_window(p)
    b_p = hm.hstcp_b(w_p)

    def dwdt(w: float) -> float:
        p_w = P.p_low * float((w / P.w_low) ** (1.0 / P.slope))
        return 2.0 * w**2 * b_p * p_w / (rtt * (2.0 - b_p))

    lo = w_p * (1.0 - b_p)
    t_d, _ = quad(lambda w: 1.0 / dwdt(w), lo, w_p, epsrel=1e-12)
    n_d, _ = quad(lambda w: w / rtt / dwdt(w), lo, w_p, epsrel=1e-12)
    assert hm.hstcp_throughput_exact(p, rtt) == pytest.approx(n_d / t_d, rel=1e-8)
    assert hm.hstcp_throughput_exact(p, rtt) < hm.hstcp_throughput_approx(p, rtt)


# ---------------------------------------------------------------- M/M/1/K


@pytest.mark.parametrize("rho", [0.0, 0.1, 0.5, 0.99, 1.0, 1.0 + 1e-12, 1.7, 5.0])
@pytest.mark.parametrize("k", [1, 7, 125, 12500])
def test_mm1k_distribution_sums_to_one(rho: float, k: int) -> None:
    pi = hm.mm1k_distribution(rho, k)
    assert pi.shape == (k + 1,)
    assert np.all(pi >= 0)
    assert float(pi.sum()) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("rho", [0.3, 0.9, 1.4])
def test_mm1k_closed_forms(rho: float) -> None:
    k = 20
    n = np.arange(k + 1)
    closed = rho**n * (1 - rho) / (1 - rho ** (k + 1))
    np.testing.assert_allclose(hm.mm1k_distribution(rho, k), closed, rtol=1e-12)
    assert hm.mm1k_blocking(rho, k) == pytest.approx(closed[-1], rel=1e-12)
    mean = rho / (1 - rho) - (k + 1) * rho ** (k + 1) / (1 - rho ** (k + 1))
    assert hm.mm1k_mean_number(rho, k) == pytest.approx(mean, rel=1e-10)
    mu = 125000.0
    lam_eff = rho * mu * (1 - closed[-1])
    assert hm.mm1k_mean_sojourn(rho, k, mu) == pytest.approx(mean / lam_eff, rel=1e-10)
    assert hm.mm1k_mean_wait(rho, k, mu) == pytest.approx(mean / lam_eff - 1 / mu, rel=1e-10)


def test_mm1k_uniform_at_rho_one() -> None:
    k = 50
    np.testing.assert_allclose(hm.mm1k_distribution(1.0, k), np.full(k + 1, 1 / (k + 1)))
    assert hm.mm1k_blocking(1.0, k) == pytest.approx(1 / (k + 1))
    assert hm.mm1k_mean_number(1.0, k) == pytest.approx(k / 2)


@pytest.mark.parametrize(
    "rho", [1e-200, 0.5, 0.999, 1 - 1e-6, 1 - 1e-9, 1 - 1e-13, 1 + 1e-13, 1 + 1e-9, 1 + 1e-4, 3.0]
)
@pytest.mark.parametrize("k", [1, 3, 125, 12500])
def test_mm1k_closed_forms_stable_near_rho_one(rho: float, k: int) -> None:
    pi = hm.mm1k_distribution(rho, k)
    mean = float(np.dot(np.arange(k + 1), pi))
    assert hm.mm1k_mean_number(rho, k) == pytest.approx(mean, rel=1e-9, abs=1e-300)
    assert hm.mm1k_blocking(rho, k) == pytest.approx(float(pi[-1]), rel=1e-9, abs=1e-300)


def test_mm1k_large_buffer_approaches_mm1() -> None:
    assert hm.mm1k_mean_number(0.5, 2000) == pytest.approx(1.0, rel=1e-12)
    assert hm.mm1k_blocking(0.5, 2000) < 1e-300


# ---------------------------------------------------------------- RED


def test_red_drop_curve_shape() -> None:
    min_th, max_th = hm.red_thresholds(12500, 1250)
    assert (min_th, max_th) == pytest.approx((500.0, 1250.0))
    d = hm.red_drop_curve(1250, min_th, max_th)
    assert np.all(d[:501] == 0)
    assert d[875] == pytest.approx(0.05)
    assert d[1249] == pytest.approx(0.1 * 749 / 750)
    assert d[1250] == 1.0  # full buffer
    assert np.all(np.diff(d) >= 0)
    # buffer larger than BDP: thresholds from BDP, gentle ramp to 1 at 2 * max_th
    min_th, max_th = hm.red_thresholds(100, 300)
    assert (min_th, max_th) == pytest.approx((40.0, 100.0))
    d = hm.red_drop_curve(300, min_th, max_th)
    assert d[150] == pytest.approx(0.1 + 0.9 * 0.5)
    assert np.all(d[200:] == 1.0)
    d_hard = hm.red_drop_curve(300, min_th, max_th, hm.RedParams(gentle=False))
    assert d_hard[101] == 1.0


def test_red_loss_matches_sum() -> None:
    d = hm.red_drop_curve(100, 40.0, 100.0)
    rho = 0.98
    pi = hm.red_distribution(rho, d)
    assert float(pi.sum()) == pytest.approx(1.0)
    # birth-death balance with thinned arrivals
    np.testing.assert_allclose(pi[1:], pi[:-1] * rho * (1 - d[:-1]), rtol=1e-10)
    assert hm.red_loss(rho, d) == pytest.approx(float(np.dot(pi, d)), rel=1e-10)
    plain = hm.RedParams(state_dependent_arrivals=False)
    np.testing.assert_allclose(hm.red_distribution(rho, d, plain), hm.mm1k_distribution(rho, 100))


# ---------------------------------------------------------------- scenarios and fixed point


def test_scenarios() -> None:
    for sc, mean_rtt, lo, hi in (
        (hm.SCENARIO_1, 0.120, 0.1155, 0.1245),
        (hm.SCENARIO_2, 0.090, 0.038, 0.142),
    ):
        assert sc.n_flows == 10
        assert float(np.mean(sc.rtts_s)) == pytest.approx(mean_rtt)
        assert min(sc.rtts_s) == pytest.approx(lo)
        assert max(sc.rtts_s) == pytest.approx(hi)
    assert hm.SCENARIO_1.capacity_pps * 0.100 == pytest.approx(hm.SCENARIO_1.bdp_packets)
    assert hm.SCENARIO_2.capacity_pps * 0.020 == pytest.approx(hm.SCENARIO_2.bdp_packets)
    assert hm.buffer_packets_for(0.01, 6250) == 63
    assert hm.buffer_packets_for(1e-9, 6250) == 1


@pytest.mark.parametrize("queue", ["droptail", "red"])
def test_fixed_point_is_consistent(queue: hm.QueueKind) -> None:
    sc = hm.SCENARIO_1
    k = 1250
    res = hm.solve_fixed_point(sc, k, queue)
    assert res.converged and res.unique and res.warning is None
    assert len(res.roots) == 1
    # rho = sum_i lambda_i(p, R_i) / C with R_i = RTT_i + (MSS/C) E[n]
    assert sum(res.per_flow_rate_pps) / sc.capacity_pps == pytest.approx(res.offered_load, rel=1e-9)
    for rtt, r_eff, lam in zip(sc.rtts_s, res.effective_rtts_s, res.per_flow_rate_pps, strict=True):
        assert r_eff == pytest.approx(rtt + res.queueing_delay_s)
        assert lam == pytest.approx(hm.throughput(res.loss_prob, r_eff), rel=1e-9)
    if queue == "droptail":
        assert res.loss_prob == pytest.approx(hm.mm1k_blocking(res.offered_load, k), rel=1e-9)
        delay = hm.mm1k_mean_number(res.offered_load, k) / sc.capacity_pps
        assert res.queueing_delay_s == pytest.approx(delay, rel=1e-9)
    else:
        min_th, max_th = hm.red_thresholds(sc.bdp_packets, k)
        d = hm.red_drop_curve(k, min_th, max_th)
        assert res.loss_prob == pytest.approx(hm.red_loss(res.offered_load, d), rel=1e-9)
        assert res.utilisation == pytest.approx(
            1 - hm.red_distribution(res.offered_load, d)[0], rel=1e-9
        )


@pytest.mark.parametrize("queue", ["droptail", "red"])
@pytest.mark.parametrize("scenario", [hm.SCENARIO_1, hm.SCENARIO_2], ids=["s1", "s2"])
def test_utilisation_grows_with_buffer(scenario: hm.Scenario, queue: hm.QueueKind) -> None:
    curve = hm.utilisation_curve(scenario, FRACTIONS, queue)
    assert [row[0] for row in curve] == FRACTIONS
    utils = [row[1] for row in curve]
    assert all(row[3] for row in curve)
    assert all(0.0 < u <= 1.0 for u in utils)
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(utils))
    assert utils[-1] > utils[0]
    assert all(0.0 < row[2] < 1.0 for row in curve)


def test_root_scan_reports_multiple_roots_and_jumps() -> None:
    grid = np.linspace(0.0, 1.0, 97)
    roots, ok, warn = hm.find_roots_by_scan(lambda x: (x - 0.2) * (x - 0.55) * (x - 0.9), grid)
    assert ok and not warn
    assert roots == pytest.approx([0.2, 0.55, 0.9], abs=1e-12)
    roots, ok, warn = hm.find_roots_by_scan(lambda x: 1.0 if x < 0.3 else -1.0, grid)
    assert ok and len(roots) == 1 and roots[0] == pytest.approx(0.3, abs=1e-9)
    assert len(warn) == 1 and "jump" in warn[0]


def test_tiny_buffer_degrades_to_reno() -> None:
    res = hm.solve_fixed_point(hm.SCENARIO_1, 1)
    assert res.converged
    assert res.loss_prob > P.p_low  # Reno regime
    assert res.utilisation < 0.05


def test_red_fixed_point_converges() -> None:
    for sc in (hm.SCENARIO_1, hm.SCENARIO_2):
        for frac in (0.01, 0.1, 1.0, 2.0):
            k = hm.buffer_packets_for(frac, sc.bdp_packets)
            res = hm.solve_fixed_point(sc, k, "red")
            assert res.converged and res.unique, res.warning
            assert 0.0 < res.loss_prob < 1.0
            assert 0.0 < res.utilisation <= 1.0
    variant = hm.RedParams(gentle=False, state_dependent_arrivals=False)
    res = hm.solve_fixed_point(hm.SCENARIO_1, 1250, "red", red=variant)
    assert res.converged and res.unique


def test_scenario1_ten_percent_buffer(capsys: pytest.CaptureFixture[str]) -> None:
    res = hm.solve_fixed_point(hm.SCENARIO_1, hm.buffer_packets_for(0.1, 12500))
    assert res.converged
    with capsys.disabled():
        print(
            f"\n[hstcp_model] scenario 1, DropTail, buffer = 10% BDP ({res.buffer_packets} pkts): "
            f"utilisation = {res.utilisation:.4f}, p = {res.loss_prob:.3g} "
            "(paper: 'more than 90%')"
        )
