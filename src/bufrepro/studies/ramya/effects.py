"""The ramya claims' tests on the cells' spread: Welch on each cell's (n, mean, sd)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.kit import verdicts as vocab
from bufrepro.kit.claims import Check, all_of, welch_check

# A cell's summary of one column: (n, mean, sd), the summary's seeds, mean and spread.
Cell = tuple[int, float, float]
HOLDS = "holds"


def cell(row: Mapping[Any, Any], col: str, scale: float = 1.0) -> Cell | None:
    """(n, scale x mean, scale x sd) of `col` in one claim cell; None without its spread (the
    paper's own tables, one run per cell)."""
    sd, n = row.get(f"{col}_sd"), row.get(f"{col}_n")
    if sd is None or n is None or pd.isna(sd) or pd.isna(n) or pd.isna(row.get(col)):
        return None
    return int(n), scale * float(row[col]), scale * float(sd)


def cells(rows: Sequence[Mapping[Any, Any]], col: str) -> list[Cell] | None:
    """Every row's cell of `col`, or None when one lacks its spread (then the means decide)."""
    got = [cell(r, col) for r in rows]
    return None if any(c is None for c in got) else [c for c in got if c is not None]


def power(t: Cell, r: Cell) -> Cell:
    """Throughput / RTT with its sd by the delta method (the two taken as independent)."""
    p = t[1] / r[1]
    rel = math.hypot(t[2] / t[1] if t[1] else 0.0, r[2] / r[1] if r[1] else 0.0)
    return min(t[0], r[0]), p, abs(p) * rel


def slight_fall(where: str, a: Cell, b: Cell, tol: float, slight: float) -> Check:
    """A fall from a to b by more than tol (its smallest effect of interest) and at most slight
    (both in a's units): holds when the interval of the fall lies in (tol, slight], fails when it
    lies wholly outside, below -tol or above slight, undecided when it spans a bound."""
    iv = vocab.welch(a, b, vocab.CLAIM_CONFIDENCE)
    outcome = vocab.claim_outcome(iv, tol, -1)
    if outcome == vocab.word("claim", HOLDS) and -iv.low > slight:  # the fall may exceed slight
        outcome = vocab.word("claim", "fails" if -iv.high > slight else "undecided")
    what = f"goodput (a fall of at most {slight:.4g}):"
    text = vocab.evidence(what, a[1], b[1], iv, tol, outcome)
    return Check(where, outcome == vocab.word("claim", HOLDS), text, outcome)


def in_range(where: str, what: str, c: Cell, low: float, high: float) -> Check:
    """A cell's mean in [low, high]: holds when its 90 % interval lies inside, fails when it lies
    wholly outside, undecided when it spans a bound (the range is the claim's own tolerance)."""
    iv = vocab.welch((c[0], 0.0, 0.0), c, vocab.CLAIM_CONFIDENCE)  # one cell's own interval
    if not iv.judged:
        outcome = vocab.word("claim", "not_judged")
    elif low <= iv.low and iv.high <= high:
        outcome = vocab.word("claim", HOLDS)
    elif iv.high < low or iv.low > high:
        outcome = vocab.word("claim", "fails")
    else:
        outcome = vocab.word("claim", "undecided")
    text = (
        f"{what} {c[1]:.4g} [{iv.low:.4g}, {iv.high:.4g}] (90 %, n={iv.n}), range "
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
    n, m, sd = max(spread, key=lambda c: c[1])
    target = (n, th["knee_frac"] * m, th["knee_frac"] * sd)
    tol = th["tput_frac"] * target[1]
    what = f"throughput, {th['knee_frac']:.0%} of the largest -> the buffer's:"
    out = []
    buffers = list(g["buffer"])
    for b, c in zip(buffers, spread, strict=True):
        if b < th["optimum_low"]:
            out.append(welch_check(f"{ctx}, buffer {b} short", what, target, c, tol, -1, False))
    upto = [i for i, b in enumerate(buffers) if b <= th["optimum_high"]]
    if upto:
        i = upto[-1]
        where = f"{ctx}, buffer {buffers[i]} reaches"
        out.append(welch_check(where, what, target, spread[i], tol, 1, True))
    return [all_of(ctx, out)]


def power_tests(ctx: str, g: pd.DataFrame, th: Mapping[str, float]) -> list[Check] | None:
    """The largest power in range as one check of tests: every buffer outside [optimum_low,
    optimum_high] has a power below the best one inside by more than power_frac of it (None
    without spread)."""
    rows = g.to_dict("records")
    tput, rtt = cells(rows, "tput"), cells(rows, "rtt")
    if tput is None or rtt is None:
        return None
    powers = {b: power(t, r) for b, t, r in zip(g["buffer"], tput, rtt, strict=True)}
    inside = {b: p for b, p in powers.items() if optimum(b, th)}
    if not inside:
        return [Check(ctx, False, "no buffer in the optimum's range")]
    best_b, best = max(inside.items(), key=lambda kv: kv[1][1])
    tol = th["power_frac"] * best[1]
    what = f"throughput/RTT, buffer {best_b} -> the buffer's:"
    tests = [
        welch_check(f"{ctx}, buffer {b} below", what, best, p, tol, -1, False)
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
        welch_check(
            where, f"drop share, smallest buffer -> buffer {b}:", share[0], c, tol, -1, False
        )
        for b, c, tol in zip(list(g["buffer"])[1:], share[1:], itertools.repeat(th["drop_frac"]))
    ]
    out = [in_range(where, "drop share", share[0], low, high), all_of(where, most)]
    n, m, sd = max(tput, key=lambda c: c[1])
    target = (n, th["tolerate_frac"] * m, th["tolerate_frac"] * sd)
    what = f"throughput, {th['tolerate_frac']:.0%} of the largest -> the smallest buffer's:"
    out.append(welch_check(where, what, target, tput[0], th["tput_frac"] * target[1], 1, True))
    return out
