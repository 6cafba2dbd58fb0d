"""The cross-simulator table: per cell and metric, two simulators' results and their agreement."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import pandas as pd

from bufrepro.kit import verdicts

# The equivalence band: two simulators agree on a cell when the 95 % interval of the difference
# of their means lies inside +-WITHIN_FRAC of the larger mean (kit.verdicts.agreement) ...
WITHIN_FRAC = 0.10
# ... or inside the metric's own band where that is wider: drop counts near zero are compared
# within a few packets (one or two drops in a 20 s run are no disagreement).
BAND_FLOORS: tuple[tuple[str, float], ...] = ((r"drops", 3.0),)
AGREE = verdicts.word("agreement", "agree")
DIFFER = verdicts.word("agreement", "differ")
UNDECIDED = verdicts.word("agreement", "undecided")
NOT_JUDGED = verdicts.word("agreement", "not_judged")
COLS = ("n", "mean", "sd", "ci_low", "ci_high")


def floor(metric: str) -> float:
    """The metric's own band (0 when it has none)."""
    return max((f for pattern, f in BAND_FLOORS if re.search(pattern, metric)), default=0.0)


def agreement(
    a: tuple[int, float, float], b: tuple[int, float, float], metric: str = ""
) -> tuple[str, verdicts.Interval, float]:
    """How two results (n, mean, sd) compare: agree / differ / undecided / not judged (kit
    .verdicts.agreement on Welch's 95 % interval of b - a), with the interval and the band."""
    iv = verdicts.welch(a, b, verdicts.AGREE_CONFIDENCE)
    band = verdicts.band(a[1], b[1], WITHIN_FRAC, floor(metric))
    if a[1] == b[1] and a[2] == 0 and b[2] == 0:
        return AGREE, iv, band
    return verdicts.agreement(iv, band), iv, band


def _ratio(x: float, y: float) -> float:
    """y / x, nan where it is not a finite number (never inf)."""
    if not x or math.isnan(x) or math.isnan(y):
        return math.nan
    r = y / x
    return r if math.isfinite(r) else math.nan


def table(
    first: pd.DataFrame,
    second: pd.DataFrame,
    keys: Sequence[str],
    metrics: Sequence[str],
    names: tuple[str, str],
) -> pd.DataFrame:
    """keys..., metric, <a>_n, <a>_mean, <a>_sd, <a>_ci_low, <a>_ci_high, <b>_..., ratio (b / a),
    diff (b - a), diff_low, diff_high (its 95 % interval), band, how, agree (how is "agree").

    `first` and `second` are two simulators' summary tables (kit.stats.summarise); a cell only
    one has (e.g. a queue only ns-3 runs) is listed after the compared ones with how
    "<simulator> only" and nothing compared.
    """
    a, b = names
    left = first[first["metric"].isin(metrics)][[*keys, "metric", *COLS]]
    right = second[second["metric"].isin(metrics)][[*keys, "metric", *COLS]]
    both = left.merge(right, on=[*keys, "metric"], how="outer", suffixes=(f"_{a}", f"_{b}"))
    both = both.rename(columns={f"{c}_{s}": f"{s}_{c}" for c in COLS for s in names})
    both["ratio"] = [
        _ratio(x, y) for x, y in zip(both[f"{a}_mean"], both[f"{b}_mean"], strict=True)
    ]
    rows = []
    for _, row in both.iterrows():
        if pd.isna(row[f"{a}_mean"]) or pd.isna(row[f"{b}_mean"]):
            only = b if pd.isna(row[f"{a}_mean"]) else a
            rows.append((math.nan, math.nan, math.nan, math.nan, f"{only} only"))
            continue
        trio = [tuple(row[f"{s}_{c}"] for c in ("n", "mean", "sd")) for s in names]
        sides = [(int(n), float(m), float(sd)) for n, m, sd in trio]
        how, iv, band = agreement(sides[0], sides[1], str(row["metric"]))
        rows.append((iv.estimate, iv.low, iv.high, band, how))
    cols = ["diff", "diff_low", "diff_high", "band", "how"]
    both[cols] = pd.DataFrame(rows, columns=cols, index=both.index)
    both["agree"] = both["how"] == AGREE
    order = {m: i for i, m in enumerate(metrics)}
    both["_m"] = both["metric"].map(order)
    both["_only"] = both["how"].str.endswith(" only")
    both = both.sort_values(["_only", *keys, "_m"], kind="mergesort")
    return both.drop(columns=["_m", "_only"]).reset_index(drop=True)


def compared(cross: pd.DataFrame) -> pd.DataFrame:
    """The rows of cells both simulators ran."""
    return cross[~cross["how"].str.endswith(" only")]


def counts(cross: pd.DataFrame, study: str, metrics: Sequence[str]) -> pd.DataFrame:
    """Per metric: cells both simulators ran, and how many agree, differ, are undecided (the
    interval spans the band) and not judged (too little data)."""
    rows = []
    for metric in metrics:
        part = compared(cross[cross["metric"] == metric])
        if part.empty:
            continue
        rows.append(
            {
                "study": study,
                "metric": metric,
                "cells": len(part),
                "agree": int((part["how"] == AGREE).sum()),
                "differ": int((part["how"] == DIFFER).sum()),
                "undecided": int((part["how"] == UNDECIDED).sum()),
                "not_judged": int((part["how"] == NOT_JUDGED).sum()),
            }
        )
    columns = ["study", "metric", "cells", "agree", "differ", "undecided", "not_judged"]
    return pd.DataFrame(rows, columns=columns)


def against_each(
    reference: tuple[str, pd.DataFrame],
    others: Sequence[tuple[str, pd.DataFrame]],
    keys: Sequence[str],
    metrics: Sequence[str],
) -> pd.DataFrame:
    """table() of the reference simulator's summary against each further simulator's, one
    after the other, with a column "simulator" naming the further one of each row (after
    "metric"; each further simulator's own columns are empty on the others' rows)."""
    name, first = reference
    parts = []
    for other, second in others:
        part = table(first, second, keys, metrics, (name, other))
        part.insert(len(keys) + 1, "simulator", other)
        parts.append(part)
    order = [
        *keys,
        "metric",
        "simulator",
        *(f"{s}_{c}" for s in (name, *dict(others)) for c in COLS),
    ]
    both = pd.concat(parts, ignore_index=True)
    rest = ["ratio", "diff", "diff_low", "diff_high", "band", "how", "agree"]
    return both[[*order, *rest]]


def counts_each(cross: pd.DataFrame, study: str, metrics: Sequence[str]) -> pd.DataFrame:
    """counts() per further simulator of an against_each table: a column "simulator" after
    "study"."""
    parts = []
    for other in dict.fromkeys(cross["simulator"]):
        part = counts(cross[cross["simulator"] == other], study, metrics)
        part.insert(1, "simulator", other)
        parts.append(part)
    columns = ["study", "simulator", "metric", "cells", "agree", "differ", "undecided"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
