"""Fixed-point model of HighSpeed TCP over a DropTail/RED M/M/1/K bottleneck (Barman et al.)."""

# Reference: D. Barman, G. Smaragdakis, I. Matta, "The effect of router buffer size on
# HighSpeed TCP performance" (Sections II-IV), and S. Floyd, RFC 3649.
#
# Modelling choices where the paper is silent or inconsistent (see also the docstrings):
#  * p_low = 1.5 / w_low**2 (= 1.0388e-3, RFC 3649).  The paper's Sec. III-A rounds it to 1e-3;
#    pass ``HstcpParams(p_low_override=1e-3)`` to use the rounded value.
#  * b(w) is clamped to [b_high, 0.5], i.e. b = 0.5 for w <= w_low and b = b_high for
#    w >= w_high (the RFC table stops at w_high); p(w) and w(p) keep the power law beyond w_high.
#  * The last line of the paper's eq. 3 prints the denominator exponent as -1/(1 + c/A); the
#    line before it (and our re-derivation) gives -(1 + c/A).  We use -(1 + c/A).
#  * Joining Reno and HSTCP: lambda = Reno for p >= p_low (window <= w_low), and
#    max(HSTCP(p), Reno(p)) for p < p_low.  HSTCP is never less aggressive than Reno
#    (a(w) >= 1, b(w) <= 0.5), and the max keeps the "exact" form continuous at p_low (its
#    HSTCP branch alone gives 0.73 * w_low / R there, Reno gives 37.85 / R).  The eq.-3
#    approximation still has a 0.4 % downward jump at p_low (w_low = 38 vs 1.22 / sqrt(p_low)).
#  * Eq. 4 has no (1 - p) factor: rho = sum_i lambda_i / C is the *offered* load of the
#    M/M/1/K queue (lambda_i is a sending rate, N_d / T_d).  The reported utilisation is the
#    carried load rho * (1 - p) = 1 - pi(0) <= 1.
#  * Queueing delay = (MSS / C) * E[number in system], as in the paper's RED section.  The
#    paper's DropTail formula rho/(1-rho) - K rho^K/(1-rho^K) is the mean number in an
#    M/M/1/(K-1) queue (off by one in K); we use the exact M/M/1/K mean for capacity K.
#  * K (system capacity, packets) = buffer = round-half-up(fraction * BDP), at least 1.
#  * RED: the queue is the birth-death chain of Bonald et al. [11] with state-dependent
#    arrival rate lambda * (1 - p_RED(n)); a full buffer (n = K) always drops.  max_p = 0.1
#    (unstated in the paper; classic RED / ns-2 default).  Gentle RED (Adaptive RED default)
#    is the default, but it only matters when the buffer exceeds the BDP (max_th < K).
#  * Uniqueness: p(rho) and E[n](rho) increase with rho and lambda decreases in p and R, so
#    g(rho) = log(sum lambda_i / C) - log(rho) is strictly decreasing and the root is unique;
#    the sign-change scan in ``solve_fixed_point`` is a safeguard (the paper's remark on
#    uniqueness concerns the convergence of its iteration, which we do not use).

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import brentq

ThroughputForm = Literal["exact", "approx"]
QueueKind = Literal["droptail", "red"]

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


@dataclass(frozen=True)
class RedParams:
    """RED settings of Section IV (thresholds are fractions of min(BDP, buffer))."""

    max_p: float = 0.1
    min_th_fraction: float = 0.4
    max_th_fraction: float = 1.0
    gentle: bool = True
    state_dependent_arrivals: bool = True


DEFAULT_RED = RedParams()


@dataclass(frozen=True)
class Scenario:
    """N long-lived HSTCP flows sharing one bottleneck."""

    name: str
    capacity_bps: float
    packet_bytes: int
    rtts_s: tuple[float, ...]
    bdp_packets: int

    @property
    def capacity_pps(self) -> float:
        """Bottleneck capacity in packets per second."""
        return self.capacity_bps / (8.0 * self.packet_bytes)

    @property
    def n_flows(self) -> int:
        """Number of flows."""
        return len(self.rtts_s)


def uniform_rtts(low_s: float, high_s: float, n: int) -> tuple[float, ...]:
    """n propagation RTTs evenly spaced over [low_s, high_s] (endpoints included)."""
    return tuple(float(x) for x in np.linspace(low_s, high_s, n))


# Scenario 1 (Sec. III-A, Fig. 3; RED: Fig. 7): 1 Gb/s, R1-R2 delay 50 ms, 10 flows,
# RTTs 115.5-124.5 ms (mean 120 ms); buffer fractions of 12500 1-KB packets (= BDP of R1-R2).
SCENARIO_1 = Scenario(
    name="scenario1",
    capacity_bps=1e9,
    packet_bytes=1000,
    rtts_s=uniform_rtts(0.1155, 0.1245, 10),
    bdp_packets=12500,
)

# Scenario 2 (Sec. III-A, Fig. 4; RED: Fig. 8): 2.5 Gb/s, R1-R2 delay 10 ms, RTTs 38-142 ms
# (mean 90 ms), buffer fractions of 6250 packets (= BDP of R1-R2: 2.5 Gb/s * 20 ms / 8 KB).
# Flow count: Sec. III only says "we change the bandwidth ... and delay" of the 10-flow set-up,
# and the Fig. 8 caption says N = 10, so N = 10.  The paper also calls 6250 packets "35% of BDP
# of largest RTT connection", but 2.5 Gb/s * 142 ms = 44375 packets, so 6250 is ~14% of it;
# we follow the explicit 6250-packet figure.
SCENARIO_2 = Scenario(
    name="scenario2",
    capacity_bps=2.5e9,
    packet_bytes=1000,
    rtts_s=uniform_rtts(0.038, 0.142, 10),
    bdp_packets=6250,
)


# --------------------------------------------------------------------------------------------
# HSTCP response function (RFC 3649, paper Sec. II)
# --------------------------------------------------------------------------------------------


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


def _log_throughput(log_p: float, rtt_s: float, params: HstcpParams, form: ThroughputForm) -> float:
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
    return math.exp(_log_throughput(math.log(p), rtt_s, params, form))


# --------------------------------------------------------------------------------------------
# M/M/1/K helpers
# --------------------------------------------------------------------------------------------


def _logsumexp(a: NDArray[np.float64]) -> float:
    """log(sum(exp(a))), robust to -inf entries (scipy's version is slow for tiny arrays)."""
    m = float(np.max(a))
    if not math.isfinite(m):
        return m
    return m + math.log(float(np.sum(np.exp(a - m))))


def _check_queue(rho: float, k: int) -> None:
    if k < 1:
        raise ValueError("K must be >= 1")
    if rho < 0:
        raise ValueError("load must be non-negative")


def _mm1k_log_pi(rho: float, k: int) -> NDArray[np.float64]:
    """log pi(n), n = 0..K, computed stably for any rho > 0 (including rho = 1 and rho > 1)."""
    # Exponents are taken relative to the most likely state (0 if rho <= 1, K otherwise) so the
    # dominant terms carry no rounding error even for K * |log rho| >> 1.
    log_rho = math.log(rho)
    n_ref = k if log_rho > 0 else 0
    log_w = (np.arange(k + 1, dtype=np.float64) - n_ref) * log_rho
    out: NDArray[np.float64] = log_w - _logsumexp(log_w)
    return out


def mm1k_distribution(rho: float, k: int) -> NDArray[np.float64]:
    """Stationary distribution pi(n) = rho^n (1 - rho) / (1 - rho^(K+1)), n = 0..K."""
    _check_queue(rho, k)
    if rho == 0:
        pi = np.zeros(k + 1, dtype=np.float64)
        pi[0] = 1.0
        return pi
    out: NDArray[np.float64] = np.exp(_mm1k_log_pi(rho, k))
    return out


def _mm1k_log_blocking(rho: float, k: int) -> float:
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


def mm1k_blocking(rho: float, k: int) -> float:
    """Blocking (loss) probability pi(K) = rho^K (1 - rho) / (1 - rho^(K+1))."""
    _check_queue(rho, k)
    return math.exp(_mm1k_log_blocking(rho, k))


def mm1k_mean_number(rho: float, k: int) -> float:
    """Mean number in system sum_n n pi(n) (closed form)."""
    _check_queue(rho, k)
    return _mm1k_mean_number(rho, k)


def mm1k_mean_sojourn(rho: float, k: int, service_rate: float) -> float:
    """Mean time in system of an accepted customer, L / (lambda (1 - pi(K))) (Little)."""
    _check_queue(rho, k)
    if rho == 0:
        return 1.0 / service_rate
    throughput_ = rho * service_rate * (1.0 - mm1k_blocking(rho, k))
    return mm1k_mean_number(rho, k) / throughput_


def mm1k_mean_wait(rho: float, k: int, service_rate: float) -> float:
    """Mean waiting time (sojourn minus own service) of an accepted customer."""
    return mm1k_mean_sojourn(rho, k, service_rate) - 1.0 / service_rate


# --------------------------------------------------------------------------------------------
# RED
# --------------------------------------------------------------------------------------------


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
class _RedTables:
    """Per-buffer constants of the RED chain: log pi(n) = n log rho + cum_log_keep(n) + const."""

    n: NDArray[np.float64]
    cum_log_keep: NDArray[np.float64]
    log_drop: NDArray[np.float64]


def _red_tables(drop: NDArray[np.float64], red: RedParams) -> _RedTables:
    n = np.arange(drop.size, dtype=np.float64)
    with np.errstate(divide="ignore"):
        log_keep = np.log1p(-drop[:-1])
        log_drop = np.log(drop)
    if red.state_dependent_arrivals:
        cum = np.concatenate(([0.0], np.cumsum(log_keep)))
    else:
        cum = np.zeros(drop.size, dtype=np.float64)
    return _RedTables(n=n, cum_log_keep=cum, log_drop=log_drop)


def _red_log_pi(rho: float, tables: _RedTables) -> NDArray[np.float64]:
    log_w = tables.n * math.log(rho) + tables.cum_log_keep
    out: NDArray[np.float64] = log_w - _logsumexp(log_w)
    return out


def red_distribution(
    rho: float, drop: NDArray[np.float64], red: RedParams = DEFAULT_RED
) -> NDArray[np.float64]:
    """Queue distribution with arrival rate rho * (1 - drop(n)) in state n (Bonald et al.).

    With ``red.state_dependent_arrivals`` False this is the plain M/M/1/K distribution.
    """
    if rho <= 0:
        raise ValueError("load must be positive")
    out: NDArray[np.float64] = np.exp(_red_log_pi(rho, _red_tables(drop, red)))
    return out


def red_loss(rho: float, drop: NDArray[np.float64], red: RedParams = DEFAULT_RED) -> float:
    """p_red = sum_n pi(n) p_RED(n) (PASTA)."""
    if rho <= 0:
        raise ValueError("load must be positive")
    tables = _red_tables(drop, red)
    return math.exp(_logsumexp(_red_log_pi(rho, tables) + tables.log_drop))


# --------------------------------------------------------------------------------------------
# Fixed point (eqs. 4-5 and Sec. IV)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FixedPointResult:
    """Solution of rho = sum_i lambda_i(p(rho), R_i(rho)) / C."""

    queue: QueueKind
    buffer_packets: int
    offered_load: float
    utilisation: float
    loss_prob: float
    per_flow_rate_pps: tuple[float, ...]
    queueing_delay_s: float
    effective_rtts_s: tuple[float, ...]
    converged: bool
    unique: bool
    roots: tuple[float, ...]
    warning: str | None


@dataclass(frozen=True)
class _QueueState:
    log_p: float
    mean_number: float


def _queue_state(rho: float, k: int, tables: _RedTables | None) -> _QueueState:
    if tables is None:
        return _QueueState(log_p=_mm1k_log_blocking(rho, k), mean_number=_mm1k_mean_number(rho, k))
    log_pi = _red_log_pi(rho, tables)
    mean_number = float(np.dot(tables.n, np.exp(log_pi)))
    return _QueueState(log_p=_logsumexp(log_pi + tables.log_drop), mean_number=mean_number)


def buffer_packets_for(fraction: float, bdp_packets: int) -> int:
    """Buffer K = round-half-up(fraction * BDP), at least one packet."""
    return max(1, math.floor(fraction * bdp_packets + 0.5))


def find_roots_by_scan(
    g: Callable[[float], float], grid: NDArray[np.float64]
) -> tuple[list[float], bool, list[str]]:
    """Roots of g: scan ``grid`` for sign changes, refine each bracket with scipy brentq.

    Returns (roots in increasing order, all brackets converged, warnings).  A sign change
    across which |g| stays large (a jump, not a root) is reported in the warnings.
    """
    vals = np.array([g(float(x)) for x in grid])
    signs = np.sign(vals)
    roots: list[float] = [float(x) for x, sg in zip(grid, signs, strict=True) if sg == 0]
    warnings: list[str] = []
    converged = True
    for i in range(grid.size - 1):
        if signs[i] * signs[i + 1] >= 0:
            continue
        a, b = float(grid[i]), float(grid[i + 1])
        root, info = brentq(
            g, a, b, xtol=1e-15, rtol=1e-13, maxiter=200, full_output=True, disp=False
        )
        root_f = float(root)
        roots.append(root_f)
        if not bool(info.converged):
            converged = False
            warnings.append(f"brentq did not converge in [{a:.6g}, {b:.6g}]: {info.flag}")
        elif abs(g_root := g(root_f)) > 1e-6:
            warnings.append(f"sign change at x={root_f:.9g} is a jump of g (|g|={abs(g_root):.3g})")
    return sorted(roots), converged, warnings


def solve_fixed_point(
    scenario: Scenario,
    buffer_packets: int,
    queue: QueueKind = "droptail",
    *,
    hstcp: HstcpParams = DEFAULT_HSTCP,
    form: ThroughputForm = "approx",
    red: RedParams = DEFAULT_RED,
    scan_points: int = 300,
) -> FixedPointResult:
    """Solve eq. 5 (DropTail) or its RED analogue for the offered load rho with brentq.

    The bracketing function is g(rho) = log(sum_i lambda_i / C) - log(rho), evaluated in log
    space so that tiny loss rates do not underflow.  g is scanned on a grid for sign changes;
    each bracketed root is refined with brentq.  With several roots the lowest-load one is
    returned, ``unique`` is False and ``warning`` says so.
    """
    k = int(buffer_packets)
    if k < 1:
        raise ValueError("buffer must hold at least one packet")
    cap = scenario.capacity_pps
    service = 1.0 / cap
    rtts = np.asarray(scenario.rtts_s, dtype=np.float64)
    tables: _RedTables | None = None
    if queue == "red":
        min_th, max_th = red_thresholds(scenario.bdp_packets, k, red)
        tables = _red_tables(red_drop_curve(k, min_th, max_th, red), red)

    def log_rates(rho: float) -> tuple[_QueueState, NDArray[np.float64]]:
        st = _queue_state(rho, k, tables)
        delay = service * st.mean_number
        logs = np.array([_log_throughput(st.log_p, float(r) + delay, hstcp, form) for r in rtts])
        return st, logs

    def g(rho: float) -> float:
        _, logs = log_rates(rho)
        return _logsumexp(logs) - math.log(cap) - math.log(rho)

    warnings: list[str] = []
    lo, hi = 1e-6, 1.0
    while g(lo) <= 0 and lo > 1e-300:
        lo *= 1e-6
    while g(hi) >= 0 and hi < 1e3:
        hi *= 2.0
    if g(lo) <= 0 or g(hi) >= 0:
        warnings.append(f"no sign change of g on [{lo:.3g}, {hi:.3g}]")
        return _failed(queue, k, scenario, warnings)

    grid = np.unique(
        np.concatenate(
            (np.geomspace(lo, 0.5 * hi, scan_points // 3), np.linspace(0.5 * hi, hi, scan_points))
        )
    )
    roots, converged, scan_warnings = find_roots_by_scan(g, grid)
    warnings.extend(scan_warnings)
    if not roots:
        warnings.append("scan found no sign change")
        return _failed(queue, k, scenario, warnings)
    unique = len(roots) == 1
    if not unique:
        warnings.append(f"fixed point not unique: {len(roots)} roots at rho={roots}")

    rho = roots[0]
    st, logs = log_rates(rho)
    p = math.exp(st.log_p)
    return FixedPointResult(
        queue=queue,
        buffer_packets=k,
        offered_load=rho,
        utilisation=rho * (1.0 - p),
        loss_prob=p,
        per_flow_rate_pps=tuple(float(x) for x in np.exp(logs)),
        queueing_delay_s=service * st.mean_number,
        effective_rtts_s=tuple(float(r) + service * st.mean_number for r in rtts),
        converged=converged,
        unique=unique,
        roots=tuple(roots),
        warning="; ".join(warnings) if warnings else None,
    )


def _failed(queue: QueueKind, k: int, scenario: Scenario, warnings: list[str]) -> FixedPointResult:
    nan = math.nan
    return FixedPointResult(
        queue=queue,
        buffer_packets=k,
        offered_load=nan,
        utilisation=nan,
        loss_prob=nan,
        per_flow_rate_pps=tuple(nan for _ in scenario.rtts_s),
        queueing_delay_s=nan,
        effective_rtts_s=tuple(nan for _ in scenario.rtts_s),
        converged=False,
        unique=False,
        roots=(),
        warning="; ".join(warnings),
    )


def utilisation_curve(
    scenario: Scenario,
    fractions: Sequence[float],
    queue: QueueKind = "droptail",
    *,
    hstcp: HstcpParams = DEFAULT_HSTCP,
    form: ThroughputForm = "approx",
    red: RedParams = DEFAULT_RED,
) -> list[tuple[float, float, float, bool]]:
    """(fraction, utilisation, loss probability, converged) for buffer = fraction * BDP."""
    out: list[tuple[float, float, float, bool]] = []
    for frac in fractions:
        res = solve_fixed_point(
            scenario,
            buffer_packets_for(frac, scenario.bdp_packets),
            queue,
            hstcp=hstcp,
            form=form,
            red=red,
        )
        out.append((float(frac), res.utilisation, res.loss_prob, res.converged))
    return out
