"""Did it reproduce? Per-study agreement counts, each diff value's status, and the summary table."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import verdicts
from bufrepro.pipeline import evidence, labels
from bufrepro.pipeline.evidence import MIN_SEEDS

# Fewer seeds than this: the CI is shown, but the value is not called "inside CI" (the rule
# that also labels a readings verdict "not judged": bufrepro.pipeline.evidence).
# The verdicts' vocabulary (kit.verdicts); "untestable" counts every "untestable: no run at ...",
# and "no meaningful difference" its "the AQM, not the buffer, sets the queue" form too.
VERDICTS = tuple(v for v in verdicts.judged_outcomes() if v != verdicts.word("claim", "unbound"))
NOT_JUDGED = "not judged"
NO_CALIBRATION = "calibration not run"
# What a profile's summary says where its slice cannot judge: the command that does.
JUDGED_BY = (
    "not judged here (fewer than {seeds} seeds, or a readings space of fewer than {readings} "
    "readings): the whole reproduction, `bash scripts/reproduce.sh`, judges them"
)


def judged_by(rows: Sequence[Mapping[str, str]], profile: str) -> str:
    """The line under a profile's summary naming the command that judges what it cannot ('' for
    the whole reproduction, or when everything is judged)."""
    if not profile or not any(NOT_JUDGED in str(v) for r in rows for v in r.values()):
        return ""
    return JUDGED_BY.format(seeds=MIN_SEEDS, readings=evidence.MIN_READINGS)


# Each diff value's status, from best to worst; "not run" is kept apart from "outside CI".
STATUS_TEXT = {
    "inside": "inside CI",
    "outside": "outside CI",
    "few": f"n < {MIN_SEEDS} seeds: not judged",
    "matches": "computed: matches printed",
    "differs": "computed: differs from printed",
    "notrun": "not run",
}

# Physical bounds of a metric, by its name: rates, delays and counts are >= 0; fractions
# (utilisation, loss, fairness) lie in [0, 1]; percentages in [0, 100].
_UNIT_BOUNDS: tuple[tuple[str, tuple[float, float]], ...] = (
    (r"(util|loss_rate|fairness|jain|frac)", (0.0, 1.0)),
    (r"(pct|percent|efficiency)", (0.0, 100.0)),
)


def bounds(metric: str) -> tuple[float, float]:
    """The physical interval a metric's value lies in (by its name; >= 0 by default)."""
    for pattern, interval in _UNIT_BOUNDS:
        if re.search(pattern, metric):
            return interval
    return (0.0, math.inf)


def _num(v: Any) -> float:
    """A float, NaN for anything missing or not a number."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def status(row: Mapping[Any, Any]) -> str:
    """One diff value's status: a key of STATUS_TEXT."""
    printed = row.get("matches_printed")
    if printed is not None and not (isinstance(printed, float) and math.isnan(printed)):
        return "matches" if str(printed) in ("True", "true", "1", "1.0") else "differs"
    if math.isnan(_num(row.get("ours_mean"))):
        return "notrun"
    n = _num(row.get("ours_n"))
    if math.isnan(n) or n < MIN_SEEDS:
        return "few"
    return "inside" if str(row.get("in_ci")) in ("True", "true", "1", "1.0") else "outside"


def clipped(row: Mapping[Any, Any]) -> bool:
    """Whether the value's CI reaches past its metric's physical bounds."""
    lo, hi = _num(row.get("ci_low")), _num(row.get("ci_high"))
    low_bound, high_bound = bounds(str(row.get("metric", "")))
    return (not math.isnan(lo) and lo < low_bound) or (not math.isnan(hi) and hi > high_bound)


def with_status(diff: pd.DataFrame) -> pd.DataFrame:
    """The diff with `status` (a STATUS_TEXT key) and `ci_clipped` columns."""
    out = diff.copy()
    records = out.to_dict("records")
    out["status"] = [status(r) for r in records]
    out["ci_clipped"] = [clipped(r) for r in records]
    return out


def median_rel_diff(diff: pd.DataFrame) -> dict[str, float]:
    """Median |relative difference| per metric over the values we ran (finite ones only)."""
    if "rel_diff" not in diff or "metric" not in diff:
        return {}
    rel = pd.to_numeric(diff["rel_diff"], errors="coerce").abs()
    ok = rel.notna() & ~rel.isin([math.inf])
    return {
        str(m): float(v)
        for m, v in rel[ok].groupby(diff.loc[ok, "metric"], sort=True).median().items()
    }


def counts(said: pd.Series) -> dict[str, int]:
    words = said.astype(str)
    out = {v: int((words == v).sum()) for v in VERDICTS}
    out["untestable"] = int(words.str.startswith("untestable").sum())
    # "no meaningful difference: the AQM, not the buffer, sets the queue" is one too
    out["no meaningful difference"] = int(words.str.startswith("no meaningful difference").sum())
    out[NOT_JUDGED] = int(words.str.startswith(NOT_JUDGED).sum())
    return out


# The paper's column of the claims: the side it reads (claims.csv's paper_side: the paper's
# table, or hstcp's fixed-point model), and the rows judged by our rule (claims_paper) beside
# the rows judged by another (left out of the counts, their number said).
PAPER_SIDE = "paper's table"
SAME_RULE = "judged by our rule ({rule})"
OTHER_RULE = "{n} judged by another rule ({rule}) left out"


def paper_side(claims: pd.DataFrame) -> dict[str, Any]:
    """claims_paper (counts over the rows where the paper's side is judged by our side's rule),
    claims_paper_apart (the rows judged by another), claims_paper_rule, claims_paper_side."""
    if {"rule", "paper_table_rule"} <= set(claims):
        ours, paper = (claims[c].fillna("").astype(str) for c in ("rule", "paper_table_rule"))
        same = (ours == paper) | (ours == "") | (paper == "")  # "": no comparison, no rule
    else:  # a table from before the rules were named: both read by the sign of the means
        same = pd.Series(True, index=claims.index)
    rules = (
        sorted(set(claims.loc[same, "rule"].fillna("").astype(str)) - {""})
        if "rule" in claims
        else []
    )
    apart = (
        sorted(set(claims.loc[~same, "paper_table_rule"].astype(str))) if "rule" in claims else []
    )
    side = claims["paper_side"].astype(str) if "paper_side" in claims else pd.Series([PAPER_SIDE])
    return {
        "claims_paper": counts(claims.loc[same, "paper_table_verdict"]),
        "claims_paper_apart": int((~same).sum()),
        "claims_paper_rule": ", ".join(rules),
        "claims_paper_apart_rule": ", ".join(apart),
        "claims_paper_side": ", ".join(sorted(set(side))),
    }


def paper_text(r: Mapping[str, Any]) -> str:
    """The paper's column in words: its side, its counts, and under which rule."""
    text = f"{r.get('claims_paper_side', PAPER_SIDE)}: {claims_text(r['claims_paper'])}"
    notes = []
    if r.get("claims_paper_rule"):
        notes.append(SAME_RULE.format(rule=r["claims_paper_rule"]))
    if r.get("claims_paper_apart"):
        notes.append(
            OTHER_RULE.format(n=r["claims_paper_apart"], rule=r["claims_paper_apart_rule"])
        )
    return text + (f"; {'; '.join(notes)}" if notes else "")


def verdict_line(tables: Path) -> tuple[str, str]:
    """The readings verdict of tables/verdict.json in words and by its keys, or NO_CALIBRATION."""
    path = tables / "verdict.json"
    if not path.is_file():
        return NO_CALIBRATION, ""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        return NO_CALIBRATION, ""
    text = str(data.get("verdict", NO_CALIBRATION))
    keys = str(data.get("verdict_keys", ""))
    return text, keys


def study_summary(study: str, tables: Path) -> dict[str, Any]:
    """One study's row: coverage, values inside CI (and PI), median |rel diff|, claims, verdict."""
    diff = with_status(pd.read_csv(tables / "diff.csv"))
    cov = json.loads((tables / "coverage.json").read_text(encoding="utf-8"))
    claims = pd.read_csv(tables / "claims.csv")
    ran = diff["status"].isin(["inside", "outside", "few"])
    judged = diff["status"].isin(["inside", "outside"])
    row: dict[str, Any] = {
        "study": study,
        "published_rows": int(cov["published_rows"]),
        "rows_covered": int(cov["rows_with_counterpart"]),
        "values": len(diff),
        "values_ran": int(ran.sum()),
        "values_judged": int(judged.sum()),
        "values_in_ci": int((diff["status"] == "inside").sum()),
        "values_few_seeds": int((diff["status"] == "few").sum()),
        "values_few_in_ci": int(
            ((diff["status"] == "few") & diff["in_ci"].astype(str).isin(["True", "1"])).sum()
        ),
        "values_ci_clipped": int((ran & diff["ci_clipped"]).sum()),
        "values_computed": int(diff["status"].isin(["matches", "differs"]).sum()),
        "values_matching_printed": int((diff["status"] == "matches").sum()),
        "values_in_pi": None,
        "values_with_pi": None,
        "median_abs_rel_diff": median_rel_diff(diff[ran]),
        "cross_sim": cross_sim_text(tables),
        "claims_ours": counts(claims["verdict"]),
        **paper_side(claims),
    }
    row["verdict"], row["verdict_keys"] = verdict_line(tables)
    if "in_pi" in diff and "pi_low" in diff:
        has_pi = ran & pd.to_numeric(diff["pi_low"], errors="coerce").notna()
        row["values_with_pi"] = int(has_pi.sum())
        row["values_in_pi"] = int((has_pi & diff["in_pi"].astype(str).isin(["True", "1"])).sum())
    return row


def summaries(results: Path, names: Sequence[str]) -> list[dict[str, Any]]:
    """Each study's summary row, in the configured order."""
    return [study_summary(n, results / n / "tables") for n in names]


def pct(v: float, signed: bool = False) -> str:
    """A fraction as a whole percentage (with its sign if `signed`), never "-0%"; NaN, inf: ""."""
    if math.isnan(v) or math.isinf(v):
        return ""
    text = f"{v:+.0%}" if signed else f"{v:.0%}"
    return "0%" if text in ("-0%", "+0%") else text


def claims_text(counts: Mapping[str, int]) -> str:
    """'2 holds / 1 partly / 0 fails / 1 no meaningful difference / 0 undecided (1
    untestable, 1 not judged)'."""
    text = " / ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS[:-1])
    rest = [f"{counts[k]} {k}" for k in ("untestable", NOT_JUDGED) if counts.get(k)]
    return text + (f" ({', '.join(rest)})" if rest else "")


def cross_sim_text(tables: Path) -> str:
    """'ns3: 51 agree / 14 differ / 127 undecided of 192 (66 undecided would need over 20 seeds)'
    from cross_sim_counts.csv (cell-metrics both simulators ran; the seeds a side at the observed
    spread, kit.crosssim); "" when the study ran on one simulator."""
    path = tables / "cross_sim_counts.csv"
    if not path.is_file():
        return ""
    counts = pd.read_csv(path)
    if counts.empty:
        return ""
    parts = []
    for sim, g in counts.groupby("simulator", sort=False):
        words = [f"{int(g[k].sum())} {k}" for k in ("agree", "differ", "undecided")]
        text = f"{sim}: {' / '.join(words)} of {int(g['cells'].sum())}"
        if "undecided_over_20" in g and int(g["undecided_over_20"].sum()):
            text += f" ({int(g['undecided_over_20'].sum())} undecided would need over 20 seeds)"
        parts.append(text)
    return "; ".join(parts)


def ci_text(r: Mapping[str, Any]) -> str:
    """'3 of 10 judged' and the values not judged (fewer than MIN_SEEDS seeds)."""
    few, judged = r["values_few_seeds"], r["values_judged"]
    wide = f"({r['values_few_in_ci']} inside their wide CI)"
    if judged == 0:
        if not few:
            return "none run"
        return f"{evidence.not_judged([f'all {few} values from n < {MIN_SEEDS} seeds'])} {wide}"
    text = f"{r['values_in_ci']} of {judged} judged"
    return text + (f"; {few} from n < {MIN_SEEDS} seeds not judged {wide}" if few else "")


def medians_text(study: str, medians: Mapping[str, float], by_key: bool = False) -> str:
    """'TCP delay 302%, TCP drops 424%' (metric labels; by_key: the metric names instead)."""
    return ", ".join(
        f"{m if by_key else labels.metric(study, m)} {pct(v)}" for m, v in medians.items()
    )


def display_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The summary as text cells, the same words in the HTML report, the terminal and the CSV."""
    out = []
    for r in rows:
        in_ci = ci_text(r)
        if r["values_ci_clipped"]:
            in_ci += f"; {r['values_ci_clipped']} CIs cross a physical bound"
        if r["values_computed"]:
            in_ci += (
                f"; computed: {r['values_matching_printed']} of {r['values_computed']} match print"
            )
        pi = (
            f"{r['values_in_pi']} of {r['values_with_pi']}"
            if r["values_with_pi"] is not None
            else "no PI in diff"
        )
        out.append(
            {
                "study": str(r["study"]),
                "published rows covered": f"{r['rows_covered']} of {r['published_rows']}",
                "values run": f"{r['values_ran']} of {r['values']}",
                "inside 95% CI": in_ci,
                "inside 95% PI": pi,
                "median |rel. diff|": medians_text(str(r["study"]), r["median_abs_rel_diff"])
                or "none run",
                "claims (ours)": claims_text(r["claims_ours"]),
                "claims (paper's own table)": paper_text(r),
                "cross-simulator": str(r.get("cross_sim", "")) or "one simulator",
                "verdict": str(r["verdict"]),
            }
        )
    return out


def display_keys(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Per summary row, the cells shown in words by their keys (the report's title attributes)."""
    return [
        {
            "median |rel. diff|": medians_text(str(r["study"]), r["median_abs_rel_diff"], True),
            "verdict": str(r.get("verdict_keys", "")),
        }
        for r in rows
    ]


def summary_frame(results: Path, names: Sequence[str]) -> pd.DataFrame:
    """The summary table (display_rows) as a DataFrame, one row per study."""
    return pd.DataFrame(display_rows(summaries(results, names)))


def terminal_table(rows: Sequence[Mapping[str, str]]) -> str:
    """A few lines per study: coverage and CI on the first, medians, claims and verdict below."""
    out = []
    for r in rows:
        paper, medians = r["claims (paper's own table)"], r["median |rel. diff|"]
        out += [
            f"{r['study']}: {r['published rows covered']} published rows covered, "
            f"{r['values run']} values run; inside 95% CI: {r['inside 95% CI']}",
            f"    inside 95% PI: {r['inside 95% PI']}; median |rel. diff|: {medians}",
            f"    claims, ours: {r['claims (ours)']}; {paper}",
            f"    verdict: {r['verdict']}",
        ]
    return "\n".join(out)
