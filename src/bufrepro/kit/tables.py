"""Read runs' metrics and provenance into tables: runs (one row per run) and summary."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import stats

# Per-run provenance columns: in provenance.json, not in runs.csv (they vary between machines).
PROVENANCE = ("wall_s", "ns_version", "ns_build")


def read_metrics(path: Path) -> dict[str, float]:
    """Parse a metrics.tsv ("name<TAB>value" lines); an empty value is NaN."""
    out: dict[str, float] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        name, sep, value = line.partition("\t")
        if not sep:
            raise ValueError(f"{path}:{lineno}: expected 'name<TAB>value', got {line!r}")
        out[name] = float(value) if value.strip() else math.nan
    if out.get("acct_ok") != 1.0:
        raise ValueError(f"{path}: the accounting check did not pass (no acct_ok 1)")
    return out


def read_run(run_dir: Path) -> dict[str, Any]:
    """One row: swept values and seed (params.json), metrics, and ns provenance (run.json)."""
    params = json.loads((run_dir / "params.json").read_text(encoding="utf-8"))
    meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    row: dict[str, Any] = {k: v for k, v in params.items() if k not in ("params", "template")}
    row.update(read_metrics(run_dir / "metrics.tsv"))
    row["ns_version"] = meta.get("ns_version", "")
    row["ns_build"] = meta.get("ns_package", "")
    row["wall_s"] = meta.get("wall_s", math.nan)
    return row


def collect(metric_files: Sequence[str | Path], keys: Sequence[str]) -> pd.DataFrame:
    """All runs of a study as one DataFrame, sorted by its columns' values for stable output."""
    rows = [read_run(Path(p).parent) for p in metric_files]
    if not rows:
        raise ValueError("no runs to collect")
    df = pd.DataFrame(rows)
    lead = [c for c in ("study", *keys, "seed") if c in df]
    rest = sorted(c for c in df.columns if c not in lead)
    return df[lead + rest].sort_values(lead, kind="mergesort").reset_index(drop=True)


def study_tables(
    study: str, run_dirs: Sequence[str | Path], keys: Sequence[str], reported: Sequence[str]
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """runs (one row per run, provenance columns included), summary (per cell and metric) and
    the study's provenance record."""
    runs = collect([Path(d) / "metrics.tsv" for d in run_dirs], keys)
    metric_cols = [m for m in reported if m in runs]
    summary = stats.summarise(runs, list(keys), metric_cols)
    provenance = {
        "study": study,
        "runs": len(runs),
        "seeds": sorted(int(s) for s in runs["seed"].unique()),
        "ns_versions": sorted(str(v) for v in runs["ns_version"].unique()),
        # Which simulator build ran the study: Debian's package and version, or the patched build.
        "ns_builds": sorted(str(v) for v in runs["ns_build"].unique()),
        "ns_wall_s_total": round(float(runs["wall_s"].sum()), 3),
    }
    return runs, summary, provenance


def stable_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """runs.csv's columns: everything but the provenance that differs between machines."""
    return runs[[c for c in runs.columns if c not in PROVENANCE]]
