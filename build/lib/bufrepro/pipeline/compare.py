"""Diff a study against its published tables and judge its claims; draw its figures."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro import registry
from bufrepro.kit import diff as kdiff
from bufrepro.kit.figures import save_all
from bufrepro.kit.paths import REPO_ROOT

PUBLISHED_DIR = REPO_ROOT / "published"


def inputs(cfg: Mapping[str, Any], name: str, tables_dir: Path) -> dict[str, pd.DataFrame]:
    """runs, summary, derived and published tables of a study, by name."""
    study = registry.get(name)
    names = ("runs", "summary", *study.derived, *study.rule_tables)
    out = {t: pd.read_csv(tables_dir / f"{t}.csv") for t in names}
    for i, file in enumerate(study.published_files()):
        table = pd.read_csv(PUBLISHED_DIR / file)
        out[Path(file).stem] = table
        if i == 0:
            out["published"] = table
    return out


def outputs(name: str) -> tuple[str, ...]:
    """The tables compare() writes for a study: diff, claims and its own."""
    return ("diff", "claims", *registry.get(name).tables)


def write_comparison(cfg: Mapping[str, Any], name: str, tables_dir: Path) -> dict[str, int]:
    """Write diff, claims, the study's own tables and coverage.json; returns the coverage."""
    study = registry.get(name)
    made = study.compare(cfg[name], inputs(cfg, name, tables_dir))
    missing = [t for t in outputs(name) if t not in made]
    if missing:
        raise KeyError(f"{name}.compare() returned no table {missing}")
    for table in outputs(name):
        made[table].to_csv(
            tables_dir / f"{table}.csv", index=False, float_format=study.float_format(table)
        )
    cov = kdiff.coverage(made["diff"])
    (tables_dir / "coverage.json").write_text(json.dumps(cov, indent=1) + "\n", encoding="utf-8")
    return cov


def write_figures(cfg: Mapping[str, Any], name: str, tables_dir: Path, out_dir: Path) -> list[Path]:
    """Draw the study's figures from all its tables into out_dir/<figure>.png."""
    study = registry.get(name)
    tables = inputs(cfg, name, tables_dir)
    tables.update({t: pd.read_csv(tables_dir / f"{t}.csv") for t in outputs(name)})
    figures = study.draw(cfg[name], tables)
    unknown = sorted(set(figures) ^ set(study.figures))
    if unknown:
        raise KeyError(f"{name}.draw() figures differ from STUDY.figures: {unknown}")
    return save_all(figures, out_dir)
