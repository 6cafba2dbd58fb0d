"""The bottleneck queue of the model: M/M/1/K, and RED as a birth-death chain (Bonald et al.)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class RedParams:
    """RED settings of Section IV (thresholds are fractions of min(BDP, buffer))."""

    max_p: float = 0.1
    min_th_fraction: float = 0.4
    max_th_fraction: float = 1.0
    gentle: bool = True
    state_dependent_arrivals: bool = True


DEFAULT_RED = RedParams()


def logsumexp(a: NDArray[np.float64]) -> float:
    """log(sum(exp(a))), robust to -inf entries (scipy's version is slow for tiny arrays)."""
    m = float(np.max(a))
    if not math.isfinite(m):
        return m
    return m + math.log(float(np.sum(np.exp(a - m))))


def mm1k_log_blocking(rho: float, k: int) -> float:
    """log pi(K) in O(1), accurate for rho near 1 and without overflow for K |log rho| >> 1."""
    if rho == 0:
        return -math.inf
    x = math.log(rho)
    if x == 0:
        return -math.log(k + 1)
    if x < 0:  # rho^K (1 - rho) / (1 - rho^(K+1))
        return k * x + math.log(-math.expm1(x)) - math.log(-math.expm1((k + 1) * x))
    # rho > 1: (1 - 1/rho) / (1 - rho^-(K+1))
    return math.log(-math.expm1(-x)) - math.log(-math.expm1(-(k + 1) * x))


def _inv_expm1_neg(z: float) -> float:
    """1 / (exp(-z) - 1) without overflow."""
    if -z > 700.0:
        return 0.0
    return 1.0 / math.expm1(-z)


def _mm1k_mean_number(rho: float, k: int) -> float:
    """rho/(1-rho) - (K+1) rho^(K+1)/(1-rho^(K+1)) in O(1), with a series near rho = 1."""
    if rho == 0:
        return 0.0
    x = math.log(rho)
    z = (k + 1) * x
    if abs(z) < 1e-2:  # Bernoulli expansion of 1/expm1; avoids cancellation of two ~1/x terms
        return k / 2 + ((k + 1) ** 2 - 1) * x / 12 - ((k + 1) ** 4 - 1) * x**3 / 720
    return _inv_expm1_neg(x) - (k + 1) * _inv_expm1_neg(z)


def red_thresholds(
    bdp_packets: float, buffer_packets: int, red: RedParams = DEFAULT_RED
) -> tuple[float, float]:
    """(min_th, max_th) = (0.4, 1.0) * min(BDP, buffer) by default (Figs. 7-8)."""
    base = min(float(bdp_packets), float(buffer_packets))
    return red.min_th_fraction * base, red.max_th_fraction * base


def red_drop_curve(
    k: int, min_th: float, max_th: float, red: RedParams = DEFAULT_RED
) -> NDArray[np.float64]:
    """Drop probability per instantaneous queue length n = 0..K (1 at n = K: buffer full)."""
    n = np.arange(k + 1, dtype=np.float64)
    span = max(max_th - min_th, 1e-12)
    d = np.where(n <= min_th, 0.0, (n - min_th) * red.max_p / span)
    if red.gentle:
        above = red.max_p + (1.0 - red.max_p) * (n - max_th) / max(max_th, 1e-12)
    else:
        above = np.ones_like(n)
    d = np.where(n > max_th, above, d)
    d = np.clip(d, 0.0, 1.0)
    d[k] = 1.0
    out: NDArray[np.float64] = d
    return out


@dataclass(frozen=True)
class RedTables:
    """Per-buffer constants of the RED chain: log pi(n) = n log rho + cum_log_keep(n) + const."""

    n: NDArray[np.float64]
    cum_log_keep: NDArray[np.float64]
    log_drop: NDArray[np.float64]


def red_tables(drop: NDArray[np.float64], red: RedParams) -> RedTables:
    n = np.arange(drop.size, dtype=np.float64)
    with np.errstate(divide="ignore"):
        log_keep = np.log1p(-drop[:-1])
        log_drop = np.log(drop)
    if red.state_dependent_arrivals:
        cum = np.concatenate(([0.0], np.cumsum(log_keep)))
    else:
        cum = np.zeros(drop.size, dtype=np.float64)
    return RedTables(n=n, cum_log_keep=cum, log_drop=log_drop)


def _red_log_pi(rho: float, tables: RedTables) -> NDArray[np.float64]:
    log_w = tables.n * math.log(rho) + tables.cum_log_keep
    out: NDArray[np.float64] = log_w - logsumexp(log_w)
    return out


@dataclass(frozen=True)
class QueueState:
    """The queue at one offered load: log of its loss probability, mean number in system."""

    log_p: float
    mean_number: float


def queue_state(rho: float, k: int, tables: RedTables | None) -> QueueState:
    """Loss and mean number at load rho: M/M/1/K for K packets, or the RED chain of `tables`."""
    if tables is None:
        return QueueState(log_p=mm1k_log_blocking(rho, k), mean_number=_mm1k_mean_number(rho, k))
    log_pi = _red_log_pi(rho, tables)
    mean_number = float(np.dot(tables.n, np.exp(log_pi)))
    return QueueState(log_p=logsumexp(log_pi + tables.log_drop), mean_number=mean_number)
