"""The claims judged on the best calibrated reading's runs: claims_calibrated.csv, marked fitted."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro import registry
from bufrepro.kit import tables
from bufrepro.pipeline import compare
from bufrepro.pipeline.readings import runs as rruns
from bufrepro.pipeline.readings.calibration import A_PRIORI, a_priori_values, design
from bufrepro.pipeline.readings.space import Space

# claims.csv's columns every study writes (a study may add more, e.g. shape_verdict).
BASE = (
    "claim",
    "scope",
    "seed_file",
    "statement",
    "definition",
    "verdict",
    "agree",
    "comparisons",
    "evidence",
    "paper_table_verdict",
    "paper_table_evidence",
)
# Columns claims_calibrated.csv adds. `a_priori_cells_verdict` is the a-priori reading judged
# on the same cells and seeds as the best one (the readings' narrowed grid): the like-for-like
# baseline, since claims.csv is judged on the whole configured grid. `reason` says why a table
# is empty (the study's readings are not evaluated), and is empty otherwise.
EXTRA = (
    "reading",
    "fitted",
    "train_distance",
    "validation_distance",
    "a_priori_cells_verdict",
    "reason",
)


def judged(
    cfg: Mapping[str, Any], reading: rruns.Reading, paper: Mapping[str, pd.DataFrame]
) -> pd.DataFrame:
    """The claims table the study's own compare() makes from a reading's (current) runs."""
    study = registry.get(reading.study)
    block = dict(reading.block)
    dirs = [s.run_dir for s in rruns.specs(cfg, reading)]
    missing = [str(d) for d in dirs if not (Path(d) / "run.json").is_file()]
    if missing:
        raise FileNotFoundError(
            f"reading {reading.id} of {reading.study}: {len(missing)} runs not made, e.g. "
            f"{missing[0]} (run the calibration first)"
        )
    runs, summary, _ = tables.study_tables(
        reading.study, dirs, study.grid_keys, study.reported, study.own_simulator()
    )
    stable = tables.stable_runs(runs)
    made: dict[str, pd.DataFrame] = {"runs": stable, "summary": summary, **paper}
    made.update(study.derive(block, stable, [Path(d) for d in dirs]))
    claims: pd.DataFrame = study.compare(block, made)["claims"]
    return claims


def _values(cfg: Mapping[str, Any], space: Space, rid: str) -> dict[str, Any]:
    """A reading's values as the calibration made them (types included: calibration.json stores
    10 as 10.0, which would name another run folder)."""
    if rid == A_PRIORI:
        return a_priori_values(cfg, space)
    return dict(design(space)[int(rid.removeprefix("lhs"))])


def calibrated(cfg: Mapping[str, Any], space: Space, state: Path) -> pd.DataFrame:
    """The claims on the best reading (calibration.json's `best`), beside the a-priori reading's
    verdicts on the same cells; marked fitted, with the best reading's distances."""
    cal = json.loads(state.read_text(encoding="utf-8"))
    paper = compare.published(space.study)
    best = rruns.make(cfg, space, str(cal["best"]), _values(cfg, space, str(cal["best"])))
    prior = rruns.make(cfg, space, A_PRIORI, a_priori_values(cfg, space))
    ours = judged(cfg, best, paper)
    base = judged(cfg, prior, paper) if prior.folder != best.folder else ours
    keyed = {
        (str(c), str(s)): str(v)
        for c, s, v in zip(base["claim"], base["scope"], base["verdict"], strict=True)
    }
    return ours.assign(
        reading=best.id,
        fitted=True,
        train_distance=float(cal["train_distance"]),
        validation_distance=float(cal["validation_distance"]),
        a_priori_cells_verdict=[
            keyed.get((str(c), str(s)), "untestable")
            for c, s in zip(ours["claim"], ours["scope"], strict=True)
        ],
        reason="",
    )


def empty(reason: str) -> pd.DataFrame:
    """The table of a study whose readings are not evaluated: no rows, the reason in one."""
    row: dict[str, Any] = {c: "" for c in (*BASE, *EXTRA)}
    row.update(verdict="not judged", fitted=True, reason=reason)
    return pd.DataFrame([row], columns=[*BASE, *EXTRA])


def write(
    cfg: Mapping[str, Any],
    study: str,
    space: Space | None,
    state: Path | None,
    out: Path,
    reason: str = "",
) -> pd.DataFrame:
    """claims_calibrated.csv: the calibrated claims, or one row saying why there are none."""
    if space is None or state is None:
        table = empty(reason or "the study's readings were not evaluated")
    else:
        table = calibrated(cfg, space, state)
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False, float_format=registry.get(study).float_format("claims"))
    return table
