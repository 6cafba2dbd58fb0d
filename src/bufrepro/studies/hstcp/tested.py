"""The hstcp claims' tests on the runs (kit.verdicts): one cell against a bound, a fall, a rise."""

from __future__ import annotations

from collections.abc import Mapping

from bufrepro.kit import verdicts
from bufrepro.kit.claims import Check
from bufrepro.kit.samples import Sample

# One cell of a metric: its per-seed values (runs.csv), or the summary's (n, mean, sd) where no
# runs were given (then two cells compare by Welch: the summary keeps no pairs).
Cell = Sample | tuple[int, float, float]


def triple(c: Cell) -> tuple[int, float, float]:
    """A cell's (n, mean, sd)."""
    return (c.n, c.mean, c.sd) if isinstance(c, Sample) else c


def interval(a: Cell, b: Cell) -> verdicts.Interval:
    """The 90 % interval of b - a: paired by seed on the seeds both ran (verdicts.difference)
    when both are per-seed values, Welch's on (n, mean, sd) otherwise."""
    if isinstance(a, Sample) and isinstance(b, Sample):
        return verdicts.difference(a.values, b.values, verdicts.CLAIM_CONFIDENCE)
    return verdicts.welch(triple(a), triple(b), verdicts.CLAIM_CONFIDENCE)


def against(c: Cell, value: float) -> verdicts.Interval:
    """The 90 % interval of the cell's mean minus a fixed value (the model's, or 0)."""
    if isinstance(c, Sample):
        return interval(Sample({k: value for k in c.values}), c)
    return verdicts.welch((c[0], value, 0.0), c, verdicts.CLAIM_CONFIDENCE)


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


def tested(where: str, u: float, bound: float, cell: Cell) -> Check:
    """One utilisation against its bound, by the 90 % interval of the runs' mean."""
    n, mean, _ = triple(cell)
    iv = against(cell, 0.0)
    iv = verdicts.Interval(mean, iv.low, iv.high, n, False) if iv.judged else iv
    outcome = at_least(iv, bound)
    text = f"utilisation {u:.4f} [{iv.low:.4f}, {iv.high:.4f}] (n={n}, bound {bound:.3f})"
    return Check(where, outcome == verdicts.word("claim", "holds"), text, outcome)


def fall_tested(
    where: str,
    low: Cell,
    at10: Cell,
    sharp: bool,
    th: Mapping[str, float],
    text: str,
) -> Check:
    """The fall from the smallest fraction to 0.1 as a test (kit.verdicts): the 90 % interval
    of the difference, paired by seed (interval), against fall_min, its smallest effect of
    interest; a fall that holds but is not sharper than the slope above 0.1 (sharp_ratio, on
    the means) fails."""
    iv = interval(low, at10)
    outcome = verdicts.claim_outcome(iv, th["fall_min"], 1)
    if outcome == verdicts.word("claim", "holds") and not sharp:
        outcome = verdicts.word("claim", "fails")
    what = f"{text}; fall to 0.1:"
    told = verdicts.evidence(what, triple(low)[1], triple(at10)[1], iv, th["fall_min"], outcome)
    return Check(where, outcome == verdicts.word("claim", "holds"), told, outcome)
