"""Fixed-point model of HighSpeed TCP over a DropTail/RED M/M/1/K bottleneck (Barman et al.)."""

# Modules: response (HSTCP's response function and throughput), queues (M/M/1/K and RED),
# fixed_point (the paper's scenarios and the solver), table (the study's model table).

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
