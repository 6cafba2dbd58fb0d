"""The vegas claims' tests on the cells' per-seed values, paired by seed (kit.samples)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.kit import verdicts
from bufrepro.kit.claims import Check, all_of, sample_check
from bufrepro.kit.samples import Sample

# A cell of one column: its values by seed (ours) or its published point (the paper's).
Cell = Sample


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
