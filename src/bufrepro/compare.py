"""Diff reproduced cells against the published tables, and check the papers' claims."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

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


def format_diff(diff: pd.DataFrame) -> str:
    """The diff as an aligned plain-text table for the terminal."""
    cols = [
        "table",
        "section",
        "scenario",
        "setup",
        "variant",
        "tcp",
        "queue",
        "side",
        "plr",
        "bottleneck_mbps",
        "rwnd_bytes",
        "delay_scale",
        "packet_bytes",
        "rtt_ms",
        "buffer",
        "buffer_frac",
        "start_s",
        "published_column",
        "quantity",
        "relation",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "model",
        "rel_diff",
        "in_ci",
        "sim_agrees",
        "model_agrees",
        "matches_printed",
    ]
    view = diff[[c for c in cols if c in diff]].copy()
    # Claims diffs (a relation per row) hold loss rates such as 1e-05: significant digits there.
    fmt = "{:.4g}" if "relation" in diff else "{:.2f}"
    for c in ("published", "ours_mean", "ci_low", "ci_high", "model"):
        if c in view:
            view[c] = view[c].map(lambda v: "" if pd.isna(v) else fmt.format(v))
    view["rel_diff"] = view["rel_diff"].map(
        lambda v: "" if pd.isna(v) or math.isinf(v) else f"{v:+.0%}"
    )
    return view.to_string(index=False)


def write_comparison(
    study: str,
    block: Mapping[str, Any],
    summary_csv: Path,
    published_csv: Path,
    diff_csv: Path,
    claims_csv: Path,
    coverage_json: Path,
) -> dict[str, int]:
    """Write the diff, the claims' verdicts and the coverage counts of one study."""
    from bufrepro.studies import get

    summary = pd.read_csv(summary_csv)
    published = pd.read_csv(published_csv)
    diff, claims = get(study).compare(block, summary, published)
    diff.to_csv(diff_csv, index=False, float_format="%.6f")
    claims.to_csv(claims_csv, index=False)
    cov = coverage(diff)
    coverage_json.write_text(json.dumps(cov, indent=1) + "\n", encoding="utf-8")
    return cov


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.compare show DIFF.csv...`: print diffs, coverage and claims."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] != "show":
        print(
            "usage: python -m bufrepro.compare show results/STUDY/tables/diff.csv ...",
            file=sys.stderr,
        )
        return 2
    for path in map(Path, args[1:]):
        tables = path.parent
        print(f"== {tables.parent.name}: published rows beside our mean and 95% CI ==")
        print(format_diff(pd.read_csv(path)))
        cov = json.loads((tables / "coverage.json").read_text(encoding="utf-8"))
        print(
            f"\ncoverage: {cov['rows_with_counterpart']} of {cov['published_rows']} published "
            f"rows have a counterpart; {cov['values_in_ci']} of {cov['values_compared']} "
            "published values fall inside our 95% CI"
        )
        if "values_computed" in cov:
            print(
                f"computed from the config: {cov['values_matching_printed']} of "
                f"{cov['values_computed']} printed values match at the printed precision"
            )
        claims = pd.read_csv(tables / "claims.csv")
        print("\nclaims:")
        for row in claims.itertuples():
            print(
                f"  [{row.verdict:>10}] {row.scope:8} {row.statement}\n"
                f"               ours: {row.evidence}\n"
                f"               paper's own table: {row.paper_table_verdict}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
