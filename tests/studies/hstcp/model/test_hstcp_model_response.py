"""HighSpeed TCP's response function and throughput forms (model.response), against RFC 3649."""

from __future__ import annotations

import math

import hstcp_reference as ref
import numpy as np
import pytest
from scipy.integrate import quad

from bufrepro.studies.hstcp.model import response as rf

P = rf.DEFAULT_HSTCP


# ---------------------------------------------------------------- response function (RFC 3649)


def test_p_low_is_reno_point() -> None:
    assert P.p_low == pytest.approx(1.5 / 38**2)
    assert ref.hstcp_p(P.w_low) == pytest.approx(P.p_low, rel=1e-12)
    assert ref.hstcp_p(P.w_high) == pytest.approx(P.p_high, rel=1e-12)


def test_a_b_at_w_low_are_reno() -> None:
    assert ref.hstcp_a(P.w_low) == pytest.approx(1.0, rel=1e-12)
    assert ref.hstcp_b(P.w_low) == pytest.approx(0.5, rel=1e-12)
    # just above w_low the HSTCP formula itself must also give ~Reno's values
    assert ref.hstcp_a(P.w_low * (1 + 1e-9)) == pytest.approx(1.0, rel=1e-6)
    assert ref.hstcp_b(P.w_low * (1 + 1e-9)) == pytest.approx(0.5, rel=1e-6)
    assert ref.hstcp_b(P.w_high) == pytest.approx(P.b_high, rel=1e-12)


@pytest.mark.parametrize(
    ("w", "a_table", "b_table"),
    [(118, 2, 0.44), (221, 3, 0.41), (347, 4, 0.38), (663, 6, 0.35), (1058, 8, 0.33)],
)
def test_matches_rfc3649_appendix_b_table(w: float, a_table: int, b_table: float) -> None:
    # RFC 3649 App. B lists the window at which a(w) reaches each integer, with b(w) to 2 dp.
    assert ref.hstcp_b(w) == pytest.approx(b_table, abs=0.006)
    assert ref.hstcp_a(w) == pytest.approx(a_table, rel=0.05)


@pytest.mark.parametrize("w", [1.0, 10.0, 38.0, 100.0, 1500.0, 83000.0, 2e5])
def test_window_inverts_loss_rate(w: float) -> None:
    assert ref.hstcp_window(ref.hstcp_p(w)) == pytest.approx(w, rel=1e-10)


def test_rfc_response_function_with_rounded_p_low() -> None:
    # RFC 3649: w = 0.12 / p^0.835, obtained with p_low rounded to 1e-3 (as the paper does).
    params = rf.HstcpParams(p_low_override=1e-3)
    assert params.slope == pytest.approx(-0.835, abs=1e-3)
    for p in (1e-4, 1e-5, 1e-6, 1e-7):
        assert ref.hstcp_window(p, params) * p**0.835 == pytest.approx(0.12, rel=0.02)


def test_no_loss_means_no_limit() -> None:
    assert rf.throughput(0.0, 0.1) == math.inf


# ---------------------------------------------------------------- throughput


@pytest.mark.parametrize("form", ["exact", "approx"])
@pytest.mark.parametrize("p", [P.p_low, 2e-3, 1e-2, 0.1, 0.5])
def test_reno_regime_equals_reno(form: rf.ThroughputForm, p: float) -> None:
    rtt = 0.12
    assert rf.throughput(p, rtt, form=form) == pytest.approx(1.22 / (rtt * math.sqrt(p)), rel=1e-12)


@pytest.mark.parametrize("form", ["exact", "approx"])
def test_hstcp_regime_beats_reno_and_is_monotone(form: rf.ThroughputForm) -> None:
    ps = np.geomspace(1e-9, 0.5, 400)
    lam = np.array([rf.throughput(float(p), 0.1, form=form) for p in ps])
    assert np.all(np.diff(lam) <= 0)
    for p in (1e-4, 1e-5, 1e-7):
        assert rf.throughput(p, 0.1, form=form) > 1.5 * ref.reno_throughput(p, 0.1)


def test_approx_is_w_over_r() -> None:
    # eq. 3 approximation: lambda = w(p) / R
    for p in (1e-4, 1e-6, P.p_high):
        assert rf.throughput(p, 0.2, form="approx") == pytest.approx(ref.hstcp_window(p) / 0.2)


@pytest.mark.parametrize("p", [1e-5, 1e-7, 1e-8])
def test_exact_form_matches_numerical_integration(p: float) -> None:
    # Integrate the fluid ODE dw/dt = 2 w^2 b p(w) / (R (2 - b)) (b frozen, as in the paper)
    # from w_p (1 - b_p) to w_p; lambda = N_d / T_d.  Checks the closed form incl. the exponent.
    rtt = 0.1
    w_p = ref.hstcp_window(p)
    b_p = ref.hstcp_b(w_p)

    def dwdt(w: float) -> float:
        p_w = P.p_low * float((w / P.w_low) ** (1.0 / P.slope))
        return 2.0 * w**2 * b_p * p_w / (rtt * (2.0 - b_p))

    lo = w_p * (1.0 - b_p)
    t_d, _ = quad(lambda w: 1.0 / dwdt(w), lo, w_p, epsrel=1e-12)
    n_d, _ = quad(lambda w: w / rtt / dwdt(w), lo, w_p, epsrel=1e-12)
    # (Where HSTCP beats Reno, as at these p: the model's throughput is the HSTCP form.)
    exact = rf.throughput(p, rtt, form="exact")
    assert exact == pytest.approx(n_d / t_d, rel=1e-8)
    assert exact < rf.throughput(p, rtt, form="approx")
