"""Print each study's diff, coverage and claims to the terminal."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from bufrepro import registry
from bufrepro.kit.diff import format_diff


def show(results: Path, names: Sequence[str]) -> str:
    """The diff beside our mean and CI, the coverage line and the claims of each study."""
    out: list[str] = []
    for name in names:
        tables = results / name / "tables"
        out.append(f"== {name}: published rows beside our mean and 95% CI ==")
        out.append(format_diff(pd.read_csv(tables / "diff.csv"), registry.get(name).diff_view))
        cov = json.loads((tables / "coverage.json").read_text(encoding="utf-8"))
        out.append(
            f"\ncoverage: {cov['rows_with_counterpart']} of {cov['published_rows']} published "
            f"rows have a counterpart; {cov['values_in_ci']} of {cov['values_compared']} "
            "published values fall inside our 95% CI"
        )
        if "values_computed" in cov:
            out.append(
                f"computed from the config: {cov['values_matching_printed']} of "
                f"{cov['values_computed']} printed values match at the printed precision"
            )
        out.append("\nclaims:")
        for row in pd.read_csv(tables / "claims.csv").itertuples():
            out.append(
                f"  [{row.verdict:>10}] {row.scope:8} {row.statement}\n"
                f"               ours: {row.evidence}\n"
                f"               paper's own table: {row.paper_table_verdict}"
            )
    return "\n".join(out)
