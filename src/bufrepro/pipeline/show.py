"""Print the per-study summary first, then each study's diff, coverage and claims."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from bufrepro import registry
from bufrepro.kit.diff import format_diff
from bufrepro.pipeline import summary


def summary_text(results: Path, names: Sequence[str], profile: str = "") -> str:
    """The summary table: a few lines per study (the HTML report's first table, as text), and
    under a profile's the command that judges what it cannot."""
    rows = summary.display_rows(summary.summaries(results, names))
    hint = summary.judged_by(rows, profile)
    table = "== did it reproduce? one block per study ==\n" + summary.terminal_table(rows)
    return table + (f"\n{hint}" if hint else "")


def details(results: Path, name: str) -> str:
    """One study's diff beside our mean and CI, its coverage line and its claims."""
    tables = results / name / "tables"
    out = [f"== {name}: published rows beside our mean and 95% CI =="]
    diff = pd.read_csv(tables / "diff.csv")
    ran = diff[diff["has_counterpart"].astype(bool)] if "has_counterpart" in diff else diff
    out.append(format_diff(ran, registry.get(name).diff_view) if len(ran) else "(none run)")
    if len(ran) < len(diff):
        out.append(
            f"({len(diff) - len(ran)} published values not run in this grid are not listed; "
            f"all are in {tables / 'diff.csv'})"
        )
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
    fitted = _fitted_verdicts(tables / "claims_calibrated.csv")
    for row in pd.read_csv(tables / "claims.csv").itertuples():
        out.append(
            f"  [{row.verdict:>10}] {row.scope:8} {row.statement}\n"
            f"               ours: {row.evidence}\n"
            f"               paper's own table: {row.paper_table_verdict}"
        )
        if (key := (str(row.claim), str(row.scope))) in fitted:
            out.append(f"               {fitted[key]}")
    return "\n".join(out)


def _fitted_verdicts(path: Path) -> dict[tuple[str, str], str]:
    """Each claim's verdict on the best calibrated reading, as a line (none: no such table)."""
    if not path.is_file():
        return {}
    out: dict[tuple[str, str], str] = {}
    for row in pd.read_csv(path).itertuples():
        if bool(row.fitted):
            out[(str(row.claim), str(row.scope))] = (
                f"on the calibrated reading {row.reading} (fitted; validation distance "
                f"{row.validation_distance:.3g}): {row.verdict}"
            )
    return out


def show(results: Path, names: Sequence[str], summary_only: bool = False, profile: str = "") -> str:
    """The summary table first (short), then each study's details unless `summary_only`."""
    head = summary_text(results, names, profile)
    return head if summary_only else "\n\n".join([head, *(details(results, n) for n in names)])
