"""The model's formulas written plainly, as the tests' oracles (the model computes in logs)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from bufrepro.studies.hstcp.model.response import DEFAULT_HSTCP, HstcpParams


def log_sum(a: NDArray[np.float64]) -> float:
    """log(sum(exp(a))), the largest term taken out first."""
    m = float(np.max(a))
    return m + math.log(float(np.sum(np.exp(a - m))))


# ---------------------------------------------------------------- HighSpeed TCP (RFC 3649)


def _y(w: float, params: HstcpParams) -> float:
    return math.log(w / params.w_low) / params.big_a


def hstcp_b(w: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Multiplicative decrease b(w): 0.5 up to w_low, b_high from w_high, log-linear between."""
    if w <= params.w_low:
        return 0.5
    return min(_y(w, params), 1.0) * (params.b_high - 0.5) + 0.5


def hstcp_p(w: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Loss rate at which the window is w (Reno's 1.5 / w**2 up to w_low)."""
    if w <= params.w_low:
        return params.p_low * (params.w_low / w) ** 2
    return math.exp(_y(w, params) * params.c + math.log(params.p_low))


def hstcp_a(w: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """Additive increase a(w) = 2 w^2 b(w) p(w) / (2 - b(w)) (1 up to w_low)."""
    if w <= params.w_low:
        return 1.0
    b = hstcp_b(w, params)
    return 2.0 * w**2 * b * hstcp_p(w, params) / (2.0 - b)


def hstcp_window(p: float, params: HstcpParams = DEFAULT_HSTCP) -> float:
    """The window w(p) reached at loss rate p (the inverse of hstcp_p)."""
    if p >= params.p_low:
        return params.w_low * math.sqrt(params.p_low / p)
    return float(params.w_low * (p / params.p_low) ** params.slope)


def reno_throughput(p: float, rtt_s: float) -> float:
    """Reno's square-root law 1.22 / (R sqrt(p)), packets/s."""
    return 1.22 / (rtt_s * math.sqrt(p))


# ---------------------------------------------------------------- queues


def mm1k_distribution(rho: float, k: int) -> NDArray[np.float64]:
    """pi(n) = rho^n (1 - rho) / (1 - rho^(K+1)), n = 0..K (normalised in logs)."""
    if rho == 0:
        pi = np.zeros(k + 1)
        pi[0] = 1.0
        return pi
    # Powers relative to the likeliest state (K when rho > 1), so that it carries no rounding.
    top = k if rho > 1 else 0
    log_w = (np.arange(k + 1, dtype=np.float64) - top) * math.log(rho)
    out: NDArray[np.float64] = np.exp(log_w - log_sum(log_w))
    return out


def red_distribution(rho: float, drop: NDArray[np.float64], thinned: bool) -> NDArray[np.float64]:
    """Birth-death chain: pi(n+1) = pi(n) rho (1 - drop(n)) if thinned, else pi(n) rho."""
    keep = np.log1p(-drop[:-1]) if thinned else np.zeros(drop.size - 1)
    log_w = np.concatenate(([0.0], np.cumsum(math.log(rho) + keep)))
    out: NDArray[np.float64] = np.exp(log_w - log_sum(log_w))
    return out
