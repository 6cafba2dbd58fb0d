"""Write a study's cross-simulator tables from its own summary and another simulator's."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro import registry
from bufrepro.kit import crosssim


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
    return int(counted["disagree"].sum()) if len(counted) else 0
