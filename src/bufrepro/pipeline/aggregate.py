"""Aggregate a study's runs: runs.csv, summary.csv, provenance.json, then its derived tables."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.kit import tables
from bufrepro.pipeline import precise
from bufrepro.pipeline.batch import manifest_runs


def write_tables(
    cfg: Mapping[str, Any], name: str, manifests: Sequence[Path], out_dir: Path, provenance: Path
) -> int:
    """Write the study's runs, summary, provenance and derived tables; returns the run count."""
    study = registry.get(name)
    run_dirs = manifest_runs(list(manifests))
    # Every run's metrics.tsv and run.json are checked as they are read: the first that fails
    # stops the aggregation, naming the run (checks.BadRunFiles); nothing is written then.
    runs, summary, prov = tables.study_tables(
        name,
        run_dirs,
        study.grid_keys,
        study.reported,
        study.own_simulator(),
        study.required_metrics(),
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    tables.stable_runs(runs).to_csv(out_dir / "runs.csv", index=False, float_format="%.6f")
    summary.to_csv(out_dir / "summary.csv", index=False, float_format="%.6f")
    # Each cell's precision: every margin metric's half-width against its target (precise.py).
    precise.study_table(name, runs, study.grid_keys).to_csv(
        out_dir / "precision.csv", index=False, float_format="%.6g"
    )
    provenance.write_text(json.dumps(prov, indent=1) + "\n", encoding="utf-8")
    derived = study.derive(cfg[name], tables.stable_runs(runs), [Path(d) for d in run_dirs])
    for table in study.derived:
        derived[table].to_csv(
            out_dir / f"{table}.csv", index=False, float_format=study.float_format(table)
        )
    return len(runs)
