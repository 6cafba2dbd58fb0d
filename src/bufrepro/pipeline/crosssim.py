"""Write a study's cross-simulator tables from its own summary and another simulator's."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro import registry
from bufrepro.kit import crosssim
from bufrepro.pipeline import compare


def write(cfg: Mapping[str, Any], name: str, other: str, results: Path, out_dir: Path) -> int:
    """cross_sim.csv and cross_sim_counts.csv of study `name` against backend `other`;
    returns the number of disagreements (undecided cells, from too few seeds, not counted).
    The study's own summary is results/<name>/tables/summary.csv, the other's
    results/<name>/<other>/tables/summary.csv; the metrics are its report_metrics."""
    study = registry.get(name)
    own = pd.read_csv(results / name / "tables" / "summary.csv")
    theirs = pd.read_csv(results / name / other / "tables" / "summary.csv")
    metrics = list(study.report_metrics)
    cross = crosssim.table(own, theirs, list(study.grid_keys), metrics, (study.backend, other))
    out_dir.mkdir(parents=True, exist_ok=True)
    cross.to_csv(out_dir / "cross_sim.csv", index=False, float_format="%.6f")
    counted = crosssim.counts(cross, name, metrics)
    counted.to_csv(out_dir / "cross_sim_counts.csv", index=False)
    gap = published_gap(cfg, name, other, results)
    gap.to_csv(out_dir / "cross_sim_published.csv", index=False, float_format="%.4f")
    return int(counted["disagree"].sum()) if len(counted) else 0


def published_gap(cfg: Mapping[str, Any], name: str, other: str, results: Path) -> pd.DataFrame:
    """Per simulator, the study's diff against its published tables summarised: rows with a
    value of ours, the median |relative difference| and the share within 25 % - does the gap
    persist on the other simulator? (Its runs and summary replace the study's own; every other
    input, e.g. a study's own-rule tables, stays the study's own simulator's.)"""
    study = registry.get(name)
    own_dir = results / name / "tables"
    grid = cfg[name].get("grid")
    own_queues = list(grid.get("queue", [])) if isinstance(grid, Mapping) else []
    rows = []
    for sim, where in ((study.backend, own_dir), (other, results / name / other / "tables")):
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
