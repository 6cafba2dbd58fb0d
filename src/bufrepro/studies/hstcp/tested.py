"""The hstcp claims' tests on the runs' spread (kit.verdicts): one cell against a bound, a fall."""

from __future__ import annotations

from collections.abc import Mapping

from bufrepro.kit import verdicts
from bufrepro.kit.claims import Check


def at_least(iv: verdicts.Interval, bound: float) -> str:
    """A claim that a mean is at least `bound` (its tolerance already taken off): holds when
    the interval lies above it, fails when below, undecided when it spans it."""
    if not iv.judged:
        return verdicts.word("claim", "not_judged")
    if iv.low >= bound:
        return verdicts.word("claim", "holds")
    if iv.high < bound:
        return verdicts.word("claim", "fails")
    return verdicts.word("claim", "undecided")


def tested(where: str, u: float, bound: float, cell: tuple[int, float, float]) -> Check:
    """One utilisation against its bound, by the 90 % interval of the runs' mean."""
    n, mean, sd = cell
    iv = verdicts.welch((n, 0.0, 0.0), (n, mean, sd), verdicts.CLAIM_CONFIDENCE)
    iv = verdicts.Interval(mean, iv.low, iv.high, n, False) if iv.judged else iv
    outcome = at_least(iv, bound)
    text = f"utilisation {u:.4f} [{iv.low:.4f}, {iv.high:.4f}] (n={n}, bound {bound:.3f})"
    return Check(where, outcome == verdicts.word("claim", "holds"), text, outcome)


def fall_tested(
    where: str,
    low: tuple[int, float, float],
    at10: tuple[int, float, float],
    sharp: bool,
    th: Mapping[str, float],
    text: str,
) -> Check:
    """The fall from the smallest fraction to 0.1 as a test (kit.verdicts): Welch's 90 %
    interval of the difference of the runs' means (the summary keeps no pairs) against
    fall_min, its smallest effect of interest; a fall that holds but is not sharper than the
    slope above 0.1 (sharp_ratio, on the means) fails."""
    iv = verdicts.welch(low, at10, verdicts.CLAIM_CONFIDENCE)
    outcome = verdicts.claim_outcome(iv, th["fall_min"], 1)
    if outcome == verdicts.word("claim", "holds") and not sharp:
        outcome = verdicts.word("claim", "fails")
    what = f"{text}; fall to 0.1:"
    told = verdicts.evidence(what, low[1], at10[1], iv, th["fall_min"], outcome)
    return Check(where, outcome == verdicts.word("claim", "holds"), told, outcome)
