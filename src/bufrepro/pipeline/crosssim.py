"""Write a study's cross-simulator tables: its own simulator against each further one."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro import registry
from bufrepro.kit import crosssim, prose
from bufrepro.pipeline import compare, summary

WORDS = Path(__file__).with_name("crosssim.yaml")
MARGINS = Path(__file__).with_name("margins.yaml")


def margins(study: str) -> dict[str, crosssim.Margin]:
    """The study's agreement margin per metric (margins.yaml; a metric not listed: the default)."""
    rows = prose.load(MARGINS).get(study, {})
    return {
        str(m): crosssim.Margin(
            str(r["kind"]),
            float(r["value"]),
            float(r.get("floor", 0.0)),
            tuple(str(e) for e in r.get("events", ())),
        )
        for m, r in rows.items()
    }


def write(
    cfg: Mapping[str, Any], name: str, others: Sequence[str], results: Path, out_dir: Path
) -> int:
    """cross_sim.csv, cross_sim_counts.csv and cross_sim_published.csv of study `name`: its own
    simulator against each further one of `others`; returns the number of cells that differ
    (undecided ones not counted). The study's own summary is
    results/<name>/tables/summary.csv, a further simulator's
    results/<name>/<other>/tables/summary.csv; the metrics are its report_metrics."""
    study = registry.get(name)
    own = reference(results / name / "tables", study.reference_tables)
    theirs = [(o, pd.read_csv(results / name / o / "tables" / "summary.csv")) for o in others]
    metrics = list(study.report_metrics)
    mine = study.own_simulator()
    keys = list(study.grid_keys)
    cross = crosssim.against_each((mine, own), theirs, keys, metrics, margins(name))
    cross = clipped(reasons(cross, name, mine), [mine, *others])
    out_dir.mkdir(parents=True, exist_ok=True)
    cross.to_csv(out_dir / "cross_sim.csv", index=False, float_format="%.6f")
    counted = crosssim.counts_each(cross, name, metrics)
    counted.to_csv(out_dir / "cross_sim_counts.csv", index=False)
    gap = published_gap(cfg, name, others, results)
    gap.to_csv(out_dir / "cross_sim_published.csv", index=False, float_format="%.4f")
    return int(counted["differ"].sum()) if len(counted) else 0


def reference(tables: Path, extra: Sequence[str]) -> pd.DataFrame:
    """The own simulator's side: summary.csv and the study's reference tables (its own runs at
    cells apart from its grid; an empty file holds none)."""
    parts = [tables / "summary.csv", *(tables / f"{t}.csv" for t in extra)]
    frames = [pd.read_csv(p) for p in parts if p.stat().st_size > 0]
    return pd.concat(frames, ignore_index=True)


def reason(row: Mapping[Any, Any], study: str, sides: Sequence[str]) -> str:
    """Why a compared cell does not agree: crosssim.yaml's known reason for a difference, or
    "unexplained"; for an undecided cell its interval against the band ("" when it agrees)."""
    w = prose.load(WORDS)
    how = str(row["how"])
    if how == crosssim.DIFFER:
        known = w["known"].get(study, {}).get(str(row["metric"]))
        return str(known).strip() if known else str(w["unexplained"])
    if how == crosssim.UNDECIDED:
        n = min(int(row[f"{s}_n"]) for s in sides)
        more = float(row["seeds_needed"])
        tail = w["never"] if math.isinf(more) else prose.fill(w["more"], seeds=more)
        return " ".join(
            prose.fill(
                w["undecided"],
                low=row["diff_low"],
                high=row["diff_high"],
                band=row["band"],
                n=n,
                half=row["half_width"],
                tail=tail,
            ).split()
        )
    if how == crosssim.NOT_JUDGED:
        return str(w["not_judged"])
    return ""


def reasons(cross: pd.DataFrame, study: str, reference: str) -> pd.DataFrame:
    """The table with a column "reason" (after "how") for each cell that does not agree."""
    out = cross.copy()
    texts = [reason(r, study, (reference, str(r["simulator"]))) for r in out.to_dict("records")]
    out.insert(list(out.columns).index("how") + 1, "reason", texts)
    return out


def clipped(cross: pd.DataFrame, sims: Sequence[str]) -> pd.DataFrame:
    """Each simulator's interval clipped to the metric's physical bounds (summary.bounds: no
    negative count or delay, no utilisation above 1), marked in a column "clipped"."""
    w = prose.load(WORDS)
    out = cross.copy()
    marks: list[list[str]] = [[] for _ in range(len(out))]
    limits = [summary.bounds(str(m)) for m in out["metric"]]
    for sim in sims:
        for col, pick in ((f"{sim}_ci_low", 0), (f"{sim}_ci_high", 1)):
            if col not in out:
                continue
            values = []
            for i, v in enumerate(out[col]):
                bound = limits[i][pick]
                beyond = pd.notna(v) and (v < bound if pick == 0 else v > bound)
                if beyond:
                    marks[i].append(prose.fill(w["clipped"], side=sim, bound=bound))
                values.append(bound if beyond else v)
            out[col] = values
    out["clipped"] = ["; ".join(m) for m in marks]
    return out


def published_gap(
    cfg: Mapping[str, Any], name: str, others: Sequence[str], results: Path
) -> pd.DataFrame:
    """Per simulator (the study's own, then each of `others`), the study's diff against its
    published tables summarised: rows with a value of ours, the median |relative difference|
    and the share within 25 % - does the gap persist on each further simulator? (Its runs and
    summary replace the study's own; every other input, e.g. a study's own-rule tables, stays
    the study's own simulator's.)"""
    study = registry.get(name)
    own_dir = results / name / "tables"
    grid = cfg[name].get("grid")
    own_queues = list(grid.get("queue", [])) if isinstance(grid, Mapping) else []
    rows = []
    further = [(o, results / name / o / "tables") for o in others]
    for sim, where in ((study.own_simulator(), own_dir), *further):
        tables = compare.inputs(cfg, name, own_dir)
        for t in ("runs", "summary"):
            df = pd.read_csv(where / f"{t}.csv")
            # Only the queues the study's own simulator ran (not ns-3's further AQMs).
            tables[t] = df[df["queue"].isin(own_queues)] if "queue" in df else df
        diff = study.diff(cfg[name], tables)
        values = diff["rel_diff"] if "rel_diff" in diff else pd.Series(dtype=float)
        rel = pd.to_numeric(values, errors="coerce").abs().dropna()
        rows.append(
            {
                "study": name,
                "simulator": sim,
                "rows": len(rel),
                "median_abs_rel_diff": float(rel.median()) if len(rel) else float("nan"),
                "within_25pct": float((rel <= 0.25).mean()) if len(rel) else float("nan"),
            }
        )
    return pd.DataFrame(rows)
