"""Verdicts: a claim's test against its smallest effect of interest, and simulators' agreement."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bufrepro.kit import prose
from bufrepro.kit.stats import mean_sd, t_quantile

WORDS = Path(__file__).with_name("verdicts.yaml")
# A claim's test: two one-sided tests at alpha 0.05 (Schuirmann 1987), i.e. the 90 % interval of
# the difference against +-tolerance; "holds" and "fails" are the one-sided 95 % tests beyond it.
CLAIM_CONFIDENCE = 0.90
# Two simulators agree when the 95 % interval of their difference lies inside the band.
AGREE_CONFIDENCE = 0.95
# Fewer values a side than this: no interval, the verdict says "not judged: too little data".
MIN_VALUES = 2
# The seed key of a published value: a point of the paper's table (one value, no spread), not a
# run of ours. Two published points differ by a point: an interval of no width, judged by the
# same claim test as our runs' intervals.
PUBLISHED = -1


@cache
def words() -> Mapping[str, Any]:
    """The vocabulary (verdicts.yaml)."""
    return prose.load(WORDS)


def word(kind: str, key: str, **values: Any) -> str:
    """One word of the vocabulary: word("claim", "holds"), word("claim", "untestable", point=..)."""
    return prose.fill(words()[kind][key], **values)


def claim_words() -> tuple[str, ...]:
    """Every outcome a claim can end in, untestable's placeholder left as is."""
    return tuple(str(v) for v in words()["claim"].values())


def outcomes() -> tuple[str, ...]:
    """A claim's outcomes in the order reports count and group them (verdicts.yaml's order)."""
    return tuple(str(words()["claim"][k]) for k in words()["order"])


def judged_outcomes() -> tuple[str, ...]:
    """outcomes() but "not judged: too little data"."""
    return tuple(v for v in outcomes() if v != word("claim", "not_judged"))


@dataclass(frozen=True)
class Interval:
    """An estimate of b - a with its interval, over n values (pairs when paired); `point` when
    both sides are published points (low == high == estimate)."""

    estimate: float
    low: float
    high: float
    n: int
    paired: bool
    point: bool = False

    @property
    def judged(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high))


NO_INTERVAL = Interval(math.nan, math.nan, math.nan, 0, False)


def welch(a: tuple[int, float, float], b: tuple[int, float, float], confidence: float) -> Interval:
    """The interval of mean b - mean a from (n, mean, sd) per side (Welch-Satterthwaite)."""
    (na, ma, sa), (nb, mb, sb) = a, b
    if na < MIN_VALUES or nb < MIN_VALUES or math.isnan(sa) or math.isnan(sb):
        return Interval(mb - ma, math.nan, math.nan, min(na, nb), False)
    va, vb = sa * sa / na, sb * sb / nb
    se = math.sqrt(va + vb)
    d = mb - ma
    if se == 0:
        return Interval(d, d, d, min(na, nb), False)
    df = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    from scipy import stats as sps

    half = float(sps.t.ppf(0.5 + confidence / 2, df)) * se
    return Interval(d, d - half, d + half, min(na, nb), False)


def paired(diffs: Sequence[float], confidence: float) -> Interval:
    """The t interval of the mean of per-seed differences."""
    n, mean, sd = mean_sd(diffs)
    if n < MIN_VALUES:
        return Interval(mean, math.nan, math.nan, n, True)
    half = t_quantile(n, confidence) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, True)


def difference(
    a: Mapping[Any, float], b: Mapping[Any, float], confidence: float = CLAIM_CONFIDENCE
) -> Interval:
    """b - a from per-seed values {seed: value} (nan values dropped): two published points
    ({PUBLISHED: value}) give their difference as a point; else paired by seed on the seeds both
    sides ran, when they share at least MIN_VALUES (a run missing on one side drops that seed
    only); Welch's unpaired interval where they share fewer (different seed sets)."""
    a = {k: v for k, v in a.items() if not math.isnan(v)}
    b = {k: v for k, v in b.items() if not math.isnan(v)}
    if set(a) == set(b) == {PUBLISHED}:
        d = b[PUBLISHED] - a[PUBLISHED]
        return Interval(d, d, d, 1, False, point=True)
    common = sorted(set(a) & set(b) - {PUBLISHED})
    if len(common) >= MIN_VALUES:
        return paired([b[k] - a[k] for k in common], confidence)
    return welch(mean_sd(list(a.values())), mean_sd(list(b.values())), confidence)


def mean_interval(values: Mapping[Any, float], confidence: float = CLAIM_CONFIDENCE) -> Interval:
    """One cell's mean with its t interval ({seed: value}); a published point is its own
    interval of no width."""
    return difference({k: 0.0 for k in values}, values, confidence)


def claim_outcome(iv: Interval, tolerance: float, direction: int) -> str:
    """A claim that b - a has the sign of `direction` (+1 or -1), by at least `tolerance` t (its
    smallest effect of interest). On the number line of the difference in the claimed direction
    (low, high: the interval's ends, mirrored when direction is -1):

    - holds: t < low (the interval clears +t: the claimed effect, one-sided 95 %);
    - fails: high < -t (it clears -t: the opposite effect);
    - no meaningful difference: -t < low and high < t (inside +-t, TOST);
    - not supported: low <= -t <= high < t (the claimed effect, beyond +t, is ruled out, yet
      the interval reaches -t: neither inside +-t nor clear of it);
    - undecided: low <= t <= high (the interval holds the claimed bound +t: more runs could
      still make it hold or rule it out);
    - not judged: no interval.

    A published point (low == high) is never undecided nor not supported but on a bound."""
    if not iv.judged:
        return word("claim", "not_judged")
    low, high = (iv.low, iv.high) if direction > 0 else (-iv.high, -iv.low)
    if low > tolerance:
        return word("claim", "holds")
    if high < -tolerance:
        return word("claim", "fails")
    if -tolerance < low and high < tolerance:
        return word("claim", "no_difference")
    if high < tolerance:
        return word("claim", "not_supported")
    return word("claim", "undecided")


def seeds_to_decide(iv: Interval, tolerance: float, direction: int) -> float:
    """The seeds (pairs, when paired) an undecided claim interval would need to decide, at its
    observed spread and estimate: the half-width shrinks as 1 / sqrt(n) until the interval
    clears the claimed bound +t on one side or the other (Akaroa2's arithmetic, kit.precision
    .more_runs); it leaves out that the t quantile falls with n, so it errs high at few seeds.
    inf when the estimate sits on the bound; nan with no interval or for published points."""
    if not iv.judged or iv.point:
        return math.nan
    half = (iv.high - iv.low) / 2.0
    room = abs(direction * iv.estimate - tolerance)
    if half <= room:
        return float(iv.n)
    if room <= 0:
        return math.inf
    return float(math.ceil(iv.n * (half / room) ** 2))


def bound_outcome(iv: Interval, tolerance: float, direction: int) -> str:
    """A claim that b reaches a (direction +1: b at least a; -1: b at most a), a threshold, within
    `tolerance` t (non-inferiority). On the number line of b - a in the claimed direction:

    - holds: -t < low (the interval clears -t on the claimed side);
    - fails: high < -t (it lies wholly beyond -t: the claim is ruled out);
    - undecided: low <= -t <= high (it holds the bound);
    - not judged: no interval.

    No other case exists: an interval that rules the claim out lies below -t, which is fails,
    so "not supported" never arises here."""
    if not iv.judged:
        return word("claim", "not_judged")
    low, high = (iv.low, iv.high) if direction > 0 else (-iv.high, -iv.low)
    if low > -tolerance:
        return word("claim", "holds")
    if high < -tolerance:
        return word("claim", "fails")
    return word("claim", "undecided")


def flat_outcome(iv: Interval, tolerance: float) -> str:
    """A claim that b - a does not change (by less than `tolerance` t, its smallest effect of
    interest), an equivalence claim. On the number line of b - a:

    - holds: -t < low and high < t (inside +-t, TOST);
    - fails: t < low or high < -t (it clears a bound: a change beyond t ruled in);
    - undecided: the interval holds -t or +t;
    - not judged: no interval.

    No other case exists: equivalence is ruled out only by clearing a bound, which is fails,
    so "not supported" never arises here."""
    if not iv.judged:
        return word("claim", "not_judged")
    if -tolerance < iv.low and iv.high < tolerance:
        return word("claim", "holds")
    if iv.low > tolerance or iv.high < -tolerance:
        return word("claim", "fails")
    return word("claim", "undecided")


def agreement(iv: Interval, band: float) -> str:
    """Two simulators on one cell: agree when the 95 % interval of their difference lies inside
    +-band, differ when it lies wholly outside, undecided when it spans a bound (equivalence:
    overlapping intervals are never agreement)."""
    if not iv.judged:
        return word("agreement", "not_judged")
    if -band <= iv.low and iv.high <= band:
        return word("agreement", "agree")
    if iv.low > band or iv.high < -band:
        return word("agreement", "differ")
    return word("agreement", "undecided")


def band(mean_a: float, mean_b: float, frac: float, floor: float = 0.0) -> float:
    """The agreement band: frac of the larger mean's magnitude, at least `floor` (the metric's
    own band, e.g. a few packets for counts near zero)."""
    return max(frac * max(abs(mean_a), abs(mean_b)), floor)


def combined(outcomes: Sequence[str], holds_frac: float) -> str:
    """One verdict over several cells' outcomes: an outcome shared by at least holds_frac of the
    judged cells is the verdict; else partly when at least half hold (its old meaning); else
    the most common of fails, not supported, undecided and no meaningful difference (ties in
    that order; a cell where the buffer never binds counts as no meaningful difference, and
    when every judged cell is one, that is the verdict). No
    judged cell: the first "untestable: no run at ...", else not judged (too little data), else
    (no cell at all) untestable."""
    if not outcomes:
        return word("claim", "no_comparison")
    skip = word("claim", "not_judged")
    missing = [o for o in outcomes if o.startswith(word("claim", "no_comparison"))]
    judged = [o for o in outcomes if o != skip and o not in missing]
    if not judged:
        return missing[0] if missing else skip
    unbound = word("claim", "unbound")
    if all(o == unbound for o in judged):
        return unbound
    judged = [word("claim", "no_difference") if o == unbound else o for o in judged]
    for key in ("holds", "fails", "not_supported", "no_difference", "undecided"):
        if sum(o == word("claim", key) for o in judged) >= holds_frac * len(judged):
            return word("claim", key)
    if sum(o == word("claim", "holds") for o in judged) >= 0.5 * len(judged):
        return word("claim", "partly")
    rest = [word("claim", k) for k in ("fails", "not_supported", "undecided", "no_difference")]
    return max(rest, key=lambda w: (judged.count(w), -rest.index(w)))


def evidence(what: str, a: float, b: float, iv: Interval, tolerance: float, outcome: str) -> str:
    """One cell's evidence in verdicts.yaml's words: the means, the interval, the tolerance."""
    pairing = words()["pairing"]["point" if iv.point else "paired" if iv.paired else "unpaired"]
    return prose.fill(
        words()["evidence"],
        what=what,
        a=a,
        b=b,
        d=iv.estimate,
        low=iv.low,
        high=iv.high,
        pairing=pairing,
        n=iv.n,
        tol=tolerance,
        outcome=outcome,
    ).strip()
