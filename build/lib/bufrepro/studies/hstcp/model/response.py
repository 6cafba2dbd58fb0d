"""HighSpeed TCP's response function (RFC 3649, the paper's Sec. II) and its throughput forms."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

ThroughputForm = Literal["exact", "approx"]

RENO_CONSTANT = 1.22
"""Constant of Reno's square-root law lambda = 1.22 / (R sqrt(p)) (packets/s)."""


@dataclass(frozen=True)
class HstcpParams:
    """HighSpeed TCP parameters (RFC 3649 defaults)."""

    w_low: float = 38.0
    w_high: float = 83000.0
    p_high: float = 1e-7
    b_high: float = 0.1
    p_low_override: float | None = None

    @property
    def p_low(self) -> float:
        """Loss rate at which the window is w_low: 1.5 / w_low**2 unless overridden."""
        if self.p_low_override is not None:
            return self.p_low_override
        return 1.5 / self.w_low**2

    @property
    def big_a(self) -> float:
        """A = log(w_high / w_low)."""
        return math.log(self.w_high / self.w_low)

    @property
    def c(self) -> float:
        """c = log(p_high / p_low) (negative)."""
        return math.log(self.p_high / self.p_low)

    @property
    def slope(self) -> float:
        """A / c: exponent of the response function w(p) = w_low (p / p_low)**(A / c)."""
        return self.big_a / self.c


DEFAULT_HSTCP = HstcpParams()


def _y(w: float, params: HstcpParams) -> float:
    """Position of w on the log scale between w_low (0) and w_high (1), unclamped."""
    return math.log(w / params.w_low) / params.big_a


def hstcp_b(w: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Multiplicative decrease b(w); 0.5 for w <= w_low, b_high for w >= w_high."""
    if w <= params.w_low:
        return 0.5
    y = min(_y(w, params), 1.0)
    return y * (params.b_high - 0.5) + 0.5


def hstcp_p(w: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Loss rate at which the HSTCP window is w (Reno's 1.5 / w**2 for w <= w_low)."""
    if w <= 0:
        raise ValueError("window must be positive")
    if w <= params.w_low:
        return params.p_low * (params.w_low / w) ** 2
    return math.exp(_y(w, params) * params.c + math.log(params.p_low))


def hstcp_a(w: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Additive increase a(w) per RTT: 1 for w <= w_low, else 2 w^2 b(w) p(w) / (2 - b(w))."""
    if w <= params.w_low:
        return 1.0
    b = hstcp_b(w, params)
    return 2.0 * w**2 * b * hstcp_p(w, params) / (2.0 - b)


def hstcp_window(p: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Inverse of hstcp_p: the window w(p) reached at loss rate p."""
    if p <= 0:
        raise ValueError("loss rate must be positive")
    if p >= params.p_low:
        return params.w_low * math.sqrt(params.p_low / p)
    return float(params.w_low * (p / params.p_low) ** params.slope)


def reno_throughput(p: float, rtt_s: float) -> float:
    """Reno's square-root law 1.22 / (R sqrt(p)), packets/s."""
    if p <= 0:
        return math.inf
    return RENO_CONSTANT / (rtt_s * math.sqrt(p))


def _log_shape_factor(b: float, params: HstcpParams) -> float:
    """log of (1 + A/c) ((1-b)^(-c/A) - 1) / ((1-b)^(-(1+c/A)) - 1) from eq. 3."""
    inv_slope = params.c / params.big_a  # c / A (negative)
    log1mb = math.log1p(-b)
    num = math.expm1(-inv_slope * log1mb)
    den = math.expm1(-(1.0 + inv_slope) * log1mb)
    return math.log((1.0 + params.big_a / params.c) * num / den)


def _log_hstcp_branch(
    log_p: float, rtt_s: float, params: HstcpParams, form: ThroughputForm
) -> float:
    """log of the HSTCP-regime throughput (paper's formulas, no Reno join)."""
    log_w = math.log(params.w_low) + params.slope * (log_p - math.log(params.p_low))
    if form == "approx":
        return log_w - math.log(rtt_s)
    y = min(max((log_w - math.log(params.w_low)) / params.big_a, 0.0), 1.0)
    b_p = y * (params.b_high - 0.5) + 0.5
    return log_w - math.log(rtt_s) + _log_shape_factor(b_p, params)


def log_throughput(log_p: float, rtt_s: float, params: HstcpParams, form: ThroughputForm) -> float:
    """log of the joined throughput (Reno for p >= p_low, max(HSTCP, Reno) below)."""
    log_reno = math.log(RENO_CONSTANT) - math.log(rtt_s) - 0.5 * log_p
    if log_p >= math.log(params.p_low):
        return log_reno
    return max(log_reno, _log_hstcp_branch(log_p, rtt_s, params, form))


def hstcp_throughput_exact(p: float, rtt_s: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Paper's N_d / T_d: (w_p / R)(1 + A/c)((1-b_p)^(-c/A) - 1) / ((1-b_p)^(-(1+c/A)) - 1)."""
    if p <= 0:
        return math.inf
    return math.exp(_log_hstcp_branch(math.log(p), rtt_s, params, "exact"))


def hstcp_throughput_approx(p: float, rtt_s: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Eq. 3: lambda ~= (w_low / R) (p / p_low)^(log(w_high/w_low) / log(p_high/p_low))."""
    if p <= 0:
        return math.inf
    return math.exp(_log_hstcp_branch(math.log(p), rtt_s, params, "approx"))


def throughput(
    p: float,
    rtt_s: float,
    params: HstcpParams = DEFAULT_HSTCP,
    form: ThroughputForm = "approx",
) -> float:
    """HSTCP sending rate (packets/s): Reno for p >= p_low, max(HSTCP form, Reno) below."""
    if p <= 0:
        return math.inf
    return math.exp(log_throughput(math.log(p), rtt_s, params, form))
