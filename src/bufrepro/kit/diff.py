"""Diff reproduced cells against a published table, count coverage, format for a terminal."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd

KEY_DECIMALS = 9


def _rounded(df: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    out = df.copy()
    for k in keys:
        if pd.api.types.is_float_dtype(out[k]):
            out[k] = out[k].round(KEY_DECIMALS)
    return out


def diff_published(
    published: pd.DataFrame,
    summary: pd.DataFrame,
    keys: Sequence[str],
    metric_map: Mapping[str, str],
) -> pd.DataFrame:
    """Each published value beside our mean, 95% CI, absolute and relative difference."""
    ident = [c for c in ("seed_file", "table", "block", "row", "side") if c in published]
    long = published.melt(
        id_vars=ident + list(keys),
        value_vars=list(metric_map),
        var_name="published_column",
        value_name="published",
    )
    long["metric"] = long["published_column"].map(metric_map)
    ours = summary[[*keys, "metric", "n", "mean", "ci_low", "ci_high"]]
    merged = _rounded(long, keys).merge(_rounded(ours, keys), on=[*keys, "metric"], how="left")
    merged["abs_diff"] = merged["mean"] - merged["published"]
    merged["rel_diff"] = merged["abs_diff"] / merged["published"].where(merged["published"] != 0)
    merged["in_ci"] = (merged["published"] >= merged["ci_low"]) & (
        merged["published"] <= merged["ci_high"]
    )
    merged["has_counterpart"] = merged["mean"].notna()
    merged = merged.rename(columns={"mean": "ours_mean", "n": "ours_n"})
    order = [
        *ident,
        *keys,
        "published_column",
        "metric",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "ours_n",
        "abs_diff",
        "rel_diff",
        "in_ci",
        "has_counterpart",
    ]
    return (
        merged[order]
        .sort_values([*ident, "published_column"], kind="mergesort")
        .reset_index(drop=True)
    )


def coverage(diff: pd.DataFrame) -> dict[str, int]:
    """Counts: published rows, rows with a counterpart, values compared, values inside our CI."""
    ident = [c for c in ("seed_file", "table", "block", "row", "side") if c in diff]
    rows = diff.groupby(ident, sort=False)["has_counterpart"].all()
    # Values a study computes from its config (no simulation, no CI) carry matches_printed.
    computed = (
        diff["matches_printed"].notna()
        if "matches_printed" in diff
        else pd.Series(False, index=diff.index)
    )
    out = {
        "published_rows": int(rows.size),
        "rows_with_counterpart": int(rows.sum()),
        "values": len(diff),
        "values_compared": int((diff["has_counterpart"] & ~computed).sum()),
        "values_in_ci": int(diff["in_ci"].eq(True).sum()),
    }
    if computed.any():
        out["values_computed"] = int(computed.sum())
        out["values_matching_printed"] = int(diff.loc[computed, "matches_printed"].eq(True).sum())
    return out


# Bookkeeping columns the terminal view leaves out unless a study names its own view.
HIDDEN = ("seed_file", "block", "row", "metric", "ours_n", "abs_diff", "has_counterpart", "note")


def format_diff(diff: pd.DataFrame, columns: Sequence[str] = ()) -> str:
    """The diff as an aligned plain-text table for the terminal (`columns`: the study's view)."""
    cols = list(columns) or [c for c in diff.columns if c not in HIDDEN]
    view = diff[[c for c in cols if c in diff]].copy()
    # Claims diffs (a relation per row) hold loss rates such as 1e-05: significant digits there.
    fmt = "{:.4g}" if "relation" in diff else "{:.2f}"
    for c in ("published", "ours_mean", "ci_low", "ci_high", "model"):
        if c in view:
            view[c] = view[c].map(lambda v: "" if pd.isna(v) else fmt.format(v))
    if "rel_diff" in view:
        view["rel_diff"] = view["rel_diff"].map(
            lambda v: "" if pd.isna(v) or math.isinf(v) else f"{v:+.0%}"
        )
    return view.to_string(index=False)
