"""The ramya claims' tests on the cells' per-seed values, paired by seed (kit.samples)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.kit import verdicts as vocab
from bufrepro.kit.claims import Check, all_of, sample_check
from bufrepro.kit.samples import Sample

# A cell of one column: its values by seed (ours) or its published point (the paper's).
Cell = Sample
HOLDS = "holds"


def cell(row: Mapping[Any, Any], col: str, scale: float = 1.0) -> Cell | None:
    """`col`'s Sample in one claim cell (column `<col>_seeds`), x scale; None without one (our
    cells when no per-seed runs were given: then the means decide)."""
    got = row.get(f"{col}_seeds")
    if not isinstance(got, Sample) or pd.isna(row.get(col)):
        return None
    return got.scaled(scale) if scale != 1.0 else got


def cells(rows: Sequence[Mapping[Any, Any]], col: str) -> list[Cell] | None:
    """Every row's cell of `col`, or None when one lacks its spread (then the means decide)."""
    got = [cell(r, col) for r in rows]
    return None if any(c is None for c in got) else [c for c in got if c is not None]


def power(t: Cell, r: Cell) -> Cell:
    """Throughput / RTT, per seed (each run's own power)."""
    return t.over(r)


def slight_fall(where: str, a: Cell, b: Cell, tol: float, slight: float) -> Check:
    """A fall from a to b by more than tol (its smallest effect of interest) and at most slight
    (both in a's units): holds when the interval of the fall lies in (tol, slight], fails when it
    lies wholly outside, below -tol or above slight, undecided when it spans a bound."""
    iv = vocab.difference(a.values, b.values, vocab.CLAIM_CONFIDENCE)
    outcome = vocab.claim_outcome(iv, tol, -1)
    if outcome == vocab.word("claim", HOLDS) and -iv.low > slight:  # the fall may exceed slight
        outcome = vocab.word("claim", "fails" if -iv.high > slight else "undecided")
    what = f"goodput (a fall of at most {slight:.4g}):"
    text = vocab.evidence(what, a.mean, b.mean, iv, tol, outcome)
    return Check(where, outcome == vocab.word("claim", HOLDS), text, outcome)


def in_range(where: str, what: str, c: Cell, low: float, high: float) -> Check:
    """A cell's mean in [low, high]: holds when its 90 % interval lies inside, fails when it lies
    wholly outside, undecided when it spans a bound (the range is the claim's own tolerance)."""
    iv = vocab.mean_interval(c.values)  # one cell's own interval (a point: the paper's)
    if not iv.judged:
        outcome = vocab.word("claim", "not_judged")
    elif low <= iv.low and iv.high <= high:
        outcome = vocab.word("claim", HOLDS)
    elif iv.high < low or iv.low > high:
        outcome = vocab.word("claim", "fails")
    else:
        outcome = vocab.word("claim", "undecided")
    text = (
        f"{what} {c.mean:.4g} [{iv.low:.4g}, {iv.high:.4g}] (90 %, n={iv.n}), range "
        f"[{low:.4g}, {high:.4g}]: {outcome}"
    )
    return Check(where, outcome == vocab.word("claim", HOLDS), text, outcome)


def optimum(b: float, th: Mapping[str, float]) -> bool:
    """b in [optimum_low, optimum_high]."""
    return bool(th["optimum_low"] <= b <= th["optimum_high"])


def knee_tests(
    ctx: str, g: pd.DataFrame, spread: list[Cell], th: Mapping[str, float]
) -> list[Check]:
    """The knee as one check of tests against knee_frac x the largest throughput (tolerance
    tput_frac of it): each buffer below optimum_low falls short of it, the largest up to
    optimum_high reaches it."""
    target = max(spread, key=lambda c: c.mean).scaled(th["knee_frac"])
    tol = th["tput_frac"] * target.mean
    what = f"throughput, {th['knee_frac']:.0%} of the largest -> the buffer's:"
    out = []
    buffers = list(g["buffer"])
    for b, c in zip(buffers, spread, strict=True):
        if b < th["optimum_low"]:
            out.append(sample_check(f"{ctx}, buffer {b} short", what, target, c, tol, -1, False))
    upto = [i for i, b in enumerate(buffers) if b <= th["optimum_high"]]
    if upto:
        i = upto[-1]
        where = f"{ctx}, buffer {buffers[i]} reaches"
        out.append(sample_check(where, what, target, spread[i], tol, 1, True))
    return [all_of(ctx, out)]


def power_tests(ctx: str, g: pd.DataFrame, th: Mapping[str, float]) -> list[Check] | None:
    """The largest power in range as one check of tests: every buffer outside [optimum_low,
    optimum_high] has a power below the best one inside by more than power_frac of it, each
    run's power paired by seed (None without per-seed values)."""
    rows = g.to_dict("records")
    tput, rtt = cells(rows, "tput"), cells(rows, "rtt")
    if tput is None or rtt is None:
        return None
    powers = {b: power(t, r) for b, t, r in zip(g["buffer"], tput, rtt, strict=True)}
    inside = {b: p for b, p in powers.items() if optimum(b, th)}
    if not inside:
        return [Check(ctx, False, "no buffer in the optimum's range")]
    best_b, best = max(inside.items(), key=lambda kv: kv[1].mean)
    tol = th["power_frac"] * best.mean
    what = f"throughput/RTT, buffer {best_b} -> the buffer's:"
    tests = [
        sample_check(f"{ctx}, buffer {b} below", what, best, p, tol, -1, False)
        for b, p in powers.items()
        if b not in inside
    ]
    return [all_of(ctx, tests)]


def tolerate_tests(where: str, g: pd.DataFrame, th: Mapping[str, float]) -> list[Check] | None:
    """The smallest buffer's drops and throughput as tests (None without spread): its drop
    share in [drop_share_low, drop_share_high]; above every other buffer's by more than
    drop_frac; its throughput reaching tolerate_frac of the largest (tolerance tput_frac)."""
    rows = g.to_dict("records")
    share, tput = cells(rows, "drop_share"), cells(rows, "tput")
    if share is None or tput is None:
        return None
    low, high = th["drop_share_low"], th["drop_share_high"]
    most = [
        sample_check(
            where, f"drop share, smallest buffer -> buffer {b}:", share[0], c, tol, -1, False
        )
        for b, c, tol in zip(list(g["buffer"])[1:], share[1:], itertools.repeat(th["drop_frac"]))
    ]
    out = [in_range(where, "drop share", share[0], low, high), all_of(where, most)]
    target = max(tput, key=lambda c: c.mean).scaled(th["tolerate_frac"])
    what = f"throughput, {th['tolerate_frac']:.0%} of the largest -> the smallest buffer's:"
    out.append(sample_check(where, what, target, tput[0], th["tput_frac"] * target.mean, 1, True))
    return out
