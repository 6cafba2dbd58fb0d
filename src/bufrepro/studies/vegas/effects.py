"""The vegas claims' tests on the cells' per-seed values, paired by seed (kit.samples)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.kit import verdicts
from bufrepro.kit.claims import Check, all_of, sample_check
from bufrepro.kit.samples import Sample
from bufrepro.studies.vegas.bdp import upper_split

# A cell of one column: its values by seed (ours) or its published point (the paper's).
Cell = Sample
# The split judged by resampling the seeds (bootstrap, Efron and Tibshirani 1993): 1000 draws
# give the share of draws that find the stated split to about +-0.7 % (binomial sd at 0.95).
RESAMPLES = 1000
# The resampling's own seed, so that the verdict is the same on every run of the comparison.
RESAMPLE_SEED = 835
# The share of draws that must find the stated split for it to hold (or miss it, to fail):
# 0.95, the one-sided level of every claim test (kit.verdicts.CLAIM_CONFIDENCE's two 5 % tails).
SPLIT_SHARE = 0.95


def cell(row: Mapping[Any, Any], col: str) -> Cell | None:
    """`col`'s Sample in one claim cell (column `<col>_seeds`); None without one (our cells
    when no per-seed runs were given: then the means decide)."""
    got, mean = row.get(f"{col}_seeds"), row.get(col)
    if not isinstance(got, Sample) or mean is None or pd.isna(mean):
        return None
    return got


def step(
    where: str,
    what: str,
    r0: Mapping[Any, Any],
    r1: Mapping[Any, Any],
    col: str,
    frac: float,
    direction: int,
) -> Check | None:
    """r1's `col` against r0's as a test (kit.verdicts): the 90 % interval of the difference,
    paired by seed, against frac x the two cells' mean, in `direction`; None without samples."""
    c0, c1 = cell(r0, col), cell(r1, col)
    if c0 is None or c1 is None:
        return None
    tol = frac * abs(c0.mean + c1.mean) / 2
    return sample_check(where, what, c0, c1, tol, direction, False)


def smallest_at(
    where: str, rows: Sequence[Mapping[Any, Any]], key: str, at: float, col: str, frac: float
) -> Check | None:
    """The row with `key` == at has the smallest `col`: below every other row's by more than
    frac x the two cells' mean (one check of tests); None without spread or without that row."""
    best = [r for r in rows if r[key] == at]
    if not best:
        return None
    tests = [
        step(where, f"{col}, {key} {r[key]:g} -> {at:g}:", r, best[0], col, frac, -1)
        for r in rows
        if r[key] != at
    ]
    if any(t is None for t in tests):
        return None
    return all_of(where, [t for t in tests if t is not None])


def gap(
    where: str, rows: Sequence[Mapping[Any, Any]], upper: set[float], frac: float
) -> Check | None:
    """The split's gap as a test: the upper group's lowest mean throughput above the lower
    group's highest by more than frac x their mean; None without spread or a group."""
    lo = [r for r in rows if float(r["rtt_ms"]) not in upper]
    hi = [r for r in rows if float(r["rtt_ms"]) in upper]
    if not lo or not hi:
        return None
    a = max(lo, key=lambda r: float(r["tput"]))
    b = min(hi, key=lambda r: float(r["tput"]))
    what = f"throughput, RTT {float(a['rtt_ms']):g} (lower) -> {float(b['rtt_ms']):g} (upper):"
    return step(where, what, a, b, "tput", frac, 1)


def split_outcome(split: Check, found: bool) -> str:
    """The boundary claim's word given its gap test: where the runs' split is the stated one,
    the gap's word; where it is not, fails when the gap is real, else the gap's word (the runs
    do not decide the split)."""
    holds = verdicts.word("claim", "holds")
    if found or split.result != holds:
        return split.result
    return verdicts.word("claim", "fails")


def split_share(
    rows: Sequence[Mapping[Any, Any]], stated: set[float]
) -> tuple[float, float, int] | None:
    """(share of the seed resamples whose throughput split is `stated`, the share of the most
    common other split, fewest seeds a cell):
    each draw takes seeds with replacement - the same seeds in every cell where all cells ran
    one seed list (the runs pair by seed), else each cell's own - and splits the RTTs at the
    largest gap of the drawn means; None without per-seed values."""
    got = [cell(r, "tput") for r in rows]
    cells = [c for c in got if c is not None]
    if len(cells) < len(rows) or not cells:
        return None
    lists = [sorted(c.values) for c in cells]
    common = all(seeds == lists[0] for seeds in lists)
    rtts = [float(r["rtt_ms"]) for r in rows]
    rng = random.Random(RESAMPLE_SEED)
    found: Counter[frozenset[float]] = Counter()
    for _ in range(RESAMPLES):
        joint = [rng.choice(lists[0]) for _ in lists[0]] if common else []
        picks = [joint if common else [rng.choice(seeds) for _ in seeds] for seeds in lists]
        means = [sum(c.values[k] for k in p) / len(p) for c, p in zip(cells, picks, strict=True)]
        found[frozenset(upper_split(rtts, means))] += 1
    hits = found.pop(frozenset(stated), 0)
    other = max(found.values(), default=0)
    return hits / RESAMPLES, other / RESAMPLES, min(len(seeds) for seeds in lists)


def resampled_split(
    where: str, rows: Sequence[Mapping[Any, Any]], stated: set[float], told: str
) -> Check | None:
    """The stated split as a test by resampling seeds: holds when at least SPLIT_SHARE of the
    draws find it, fails when at least SPLIT_SHARE find one other split, undecided otherwise
    (noise that finds no split steadily says nothing against it); not judged on one run a cell
    (a published point is its own draw); None without per-seed values."""
    got = split_share(rows, stated)
    if got is None:
        return None
    share, other, n = got
    points = all(verdicts.PUBLISHED in c.values for r in rows if (c := cell(r, "tput")))
    if n < verdicts.MIN_VALUES and not points:
        key = "not_judged"
    elif share >= SPLIT_SHARE:
        key = "holds"
    elif other >= SPLIT_SHARE:
        key = "fails"
    else:
        key = "undecided"
    outcome = verdicts.word("claim", key)
    what = "one draw (the published points)" if points else f"{RESAMPLES} draws of {n} seeds"
    text = f"the stated split found in {share:.0%} of {what}; {told}: {outcome}"
    return Check(where, outcome == verdicts.word("claim", "holds"), text, outcome)
