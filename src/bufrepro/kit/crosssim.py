"""The cross-simulator table: per cell and metric, two simulators' means and 95 % intervals."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

# Two means "agree" when their intervals overlap or they are within this fraction of each other.
WITHIN_FRAC = 0.10
# Fewer seeds a side than this: its t interval (1 degree of freedom: +-12.7 sd) says too little
# for an overlap to count; only means within WITHIN_FRAC agree, and other cells are undecided.
OVERLAP_MIN_SEEDS = 3
AGREE = ("overlap", "within 10%")


def agreement(
    a: tuple[float, float, float], b: tuple[float, float, float], n: int = OVERLAP_MIN_SEEDS
) -> str:
    """How two results (mean, ci_low, ci_high) over n seeds (the fewer side's) compare:
    "within 10%" (means), "overlap" (95 % intervals, n >= OVERLAP_MIN_SEEDS), "differ", or "too few
    seeds" (n < OVERLAP_MIN_SEEDS and the means more than 10 % apart)."""
    scale = max(abs(a[0]), abs(b[0]))
    if scale == 0 or abs(a[0] - b[0]) <= WITHIN_FRAC * scale:
        return "within 10%"
    if n < OVERLAP_MIN_SEEDS:
        return "too few seeds"
    if max(a[1], b[1]) <= min(a[2], b[2]):
        return "overlap"
    return "differ"


def table(
    first: pd.DataFrame,
    second: pd.DataFrame,
    keys: Sequence[str],
    metrics: Sequence[str],
    names: tuple[str, str],
) -> pd.DataFrame:
    """keys..., metric, <a>_n, <a>_mean, <a>_ci_low, <a>_ci_high, <b>_..., ratio (b / a), how,
    agree (how is "overlap" or "within 10%").

    `first` and `second` are two simulators' summary tables (kit.stats.summarise); a cell only
    one has (e.g. a queue only ns-3 runs) is listed with how "<simulator> only", never agreeing.
    """
    a, b = names
    cols = ["n", "mean", "ci_low", "ci_high"]
    left = first[first["metric"].isin(metrics)][[*keys, "metric", *cols]]
    right = second[second["metric"].isin(metrics)][[*keys, "metric", *cols]]
    both = left.merge(right, on=[*keys, "metric"], how="outer", suffixes=(f"_{a}", f"_{b}"))
    both = both.rename(columns={f"{c}_{s}": f"{s}_{c}" for c in cols for s in names})
    both["ratio"] = [
        (y / x) if x else float("nan")
        for x, y in zip(both[f"{a}_mean"], both[f"{b}_mean"], strict=True)
    ]
    trio = ("mean", "ci_low", "ci_high")
    both["how"] = [
        f"{b} only"
        if pd.isna(row[f"{a}_mean"])
        else f"{a} only"
        if pd.isna(row[f"{b}_mean"])
        else agreement(
            tuple(row[f"{a}_{c}"] for c in trio),
            tuple(row[f"{b}_{c}"] for c in trio),
            int(min(row[f"{a}_n"], row[f"{b}_n"])),
        )
        for _, row in both.iterrows()
    ]
    both["agree"] = both["how"].isin(AGREE)
    order = {m: i for i, m in enumerate(metrics)}
    both["_m"] = both["metric"].map(order)
    both = both.sort_values([*keys, "_m"], kind="mergesort").drop(columns="_m")
    return both.reset_index(drop=True)


def counts(cross: pd.DataFrame, study: str, metrics: Sequence[str]) -> pd.DataFrame:
    """Per metric: cells compared, how many agree, differ, and are undecided (too few seeds)."""
    rows = []
    for metric in metrics:
        part = cross[(cross["metric"] == metric) & ~cross["how"].str.endswith(" only")]
        if part.empty:
            continue
        agree = int(part["agree"].sum())
        undecided = int((part["how"] == "too few seeds").sum())
        rows.append(
            {
                "study": study,
                "metric": metric,
                "cells": len(part),
                "agree": agree,
                "disagree": len(part) - agree - undecided,
                "undecided": undecided,
            }
        )
    columns = ["study", "metric", "cells", "agree", "disagree", "undecided"]
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
    cols = ["n", "mean", "ci_low", "ci_high"]
    order = [
        *keys,
        "metric",
        "simulator",
        *(f"{s}_{c}" for s in (name, *dict(others)) for c in cols),
    ]
    both = pd.concat(parts, ignore_index=True)
    return both[[*order, "ratio", "how", "agree"]]


def counts_each(cross: pd.DataFrame, study: str, metrics: Sequence[str]) -> pd.DataFrame:
    """counts() per further simulator of an against_each table: a column "simulator" after
    "study"."""
    parts = []
    for other in dict.fromkeys(cross["simulator"]):
        part = counts(cross[cross["simulator"] == other], study, metrics)
        part.insert(1, "simulator", other)
        parts.append(part)
    columns = ["study", "simulator", "metric", "cells", "agree", "disagree", "undecided"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
