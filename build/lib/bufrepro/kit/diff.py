"""Diff reproduced cells against a published table, count coverage, format for a terminal."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd

from bufrepro.kit import stats

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
    """Each published value beside our mean, the 95% CI of our mean, the 95% prediction interval
    of one run of ours, absolute and relative difference, and z = (published - mean) / sd.

    in_ci tests our mean (is the published value where our mean could be?); a published value
    is one run, so in_pi (is it where one run of ours could land?) is its fair test.
    """
    ident = [c for c in ("seed_file", "table", "block", "row", "side") if c in published]
    long = published.melt(
        id_vars=ident + list(keys),
        value_vars=list(metric_map),
        var_name="published_column",
        value_name="published",
    )
    long["metric"] = long["published_column"].map(metric_map)
    ours = summary[[*keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"]]
    merged = _rounded(long, keys).merge(_rounded(ours, keys), on=[*keys, "metric"], how="left")
    merged["abs_diff"] = merged["mean"] - merged["published"]
    merged["rel_diff"] = merged["abs_diff"] / merged["published"].where(merged["published"] != 0)
    merged["in_ci"] = (merged["published"] >= merged["ci_low"]) & (
        merged["published"] <= merged["ci_high"]
    )
    merged = merged.join(prediction_columns(merged))
    merged["has_counterpart"] = merged["mean"].notna()
    merged = merged.rename(columns={"mean": "ours_mean", "n": "ours_n", "sd": "ours_sd"})
    order = [
        *ident,
        *keys,
        "published_column",
        "metric",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "pi_low",
        "pi_high",
        "ours_sd",
        "ours_n",
        "abs_diff",
        "rel_diff",
        "z",
        "in_ci",
        "in_pi",
        "has_counterpart",
    ]
    return (
        merged[order]
        .sort_values([*ident, "published_column"], kind="mergesort")
        .reset_index(drop=True)
    )


def prediction_columns(merged: pd.DataFrame) -> pd.DataFrame:
    """pi_low, pi_high, in_pi and z of each row (columns published, mean, sd, n)."""
    half = [
        stats.prediction_half_width(float(sd), int(n)) if pd.notna(n) else math.nan
        for sd, n in zip(merged["sd"], merged["n"], strict=True)
    ]
    out = pd.DataFrame(index=merged.index)
    out["pi_low"] = merged["mean"] - half
    out["pi_high"] = merged["mean"] + half
    out["in_pi"] = (merged["published"] >= out["pi_low"]) & (merged["published"] <= out["pi_high"])
    out["z"] = [
        stats.standardized_residual(float(p), float(m), float(s))
        for p, m, s in zip(merged["published"], merged["mean"], merged["sd"], strict=True)
    ]
    return out


def coverage(diff: pd.DataFrame) -> dict[str, int]:
    """Counts: published rows, rows with a counterpart, values compared, values inside the CI of
    our mean and (when the diff has in_pi) inside the prediction interval of one run of ours."""
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
    if "in_pi" in diff:
        out["values_in_pi"] = int(diff["in_pi"].eq(True).sum())
    if computed.any():
        out["values_computed"] = int(computed.sum())
        out["values_matching_printed"] = int(diff.loc[computed, "matches_printed"].eq(True).sum())
    return out


# Bookkeeping columns the terminal view leaves out unless a study names its own view.
HIDDEN = (
    "seed_file",
    "block",
    "row",
    "metric",
    "ours_n",
    "ours_sd",
    "abs_diff",
    "has_counterpart",
    "note",
)
# What the interval columns test, printed under a diff that shows them.
LEGEND = {
    "in_ci": "in_ci: inside the 95% CI of our mean (a test of our mean, not of one run)",
    "in_pi": "in_pi: inside the 95% prediction interval of one run of ours (the test of a "
    "single published run)",
    "z": "z: (published - our mean) / our runs' sd",
}


def format_diff(diff: pd.DataFrame, columns: Sequence[str] = ()) -> str:
    """The diff as an aligned plain-text table for the terminal (`columns`: the study's view)."""
    cols = list(columns) or [c for c in diff.columns if c not in HIDDEN]
    view = diff[[c for c in cols if c in diff]].copy()
    # Claims diffs (a relation per row) hold loss rates such as 1e-05: significant digits there.
    fmt = "{:.4g}" if "relation" in diff else "{:.2f}"
    for c in ("published", "ours_mean", "ci_low", "ci_high", "pi_low", "pi_high", "model"):
        if c in view:
            view[c] = view[c].map(lambda v: "" if pd.isna(v) else fmt.format(v))
    if "rel_diff" in view:
        view["rel_diff"] = view["rel_diff"].map(
            lambda v: "" if pd.isna(v) or math.isinf(v) else f"{v:+.0%}"
        )
    if "z" in view:
        view["z"] = view["z"].map(lambda v: "" if pd.isna(v) else f"{v:+.2f}")
    legend = [text for col, text in LEGEND.items() if col in view]
    return "\n".join([view.to_string(index=False), *legend])
