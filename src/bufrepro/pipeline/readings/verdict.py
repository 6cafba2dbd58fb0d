"""The one-line verdict of a study's readings (in words, and by its keys), with its figures."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import distance as kdistance
from bufrepro.pipeline import evidence, labels
from bufrepro.pipeline.readings.sensitivity import DISTANCE
from bufrepro.pipeline.readings.space import Space


def top_parameters(sensitivity: pd.DataFrame, n: int = 3) -> dict[str, list[str]]:
    """Per metric (and the distance), the n parameters of largest Morris mu_star."""
    mu = sensitivity[sensitivity["index"] == "mu_star"]
    out = {}
    for metric, rows in mu.groupby("metric", sort=False):
        ranked = rows.sort_values(["value", "parameter"], ascending=[False, True], kind="mergesort")
        out[str(metric)] = [str(p) for p in ranked["parameter"].head(n)]
    return out


def line(space: Space, state: Mapping[str, Any], top: Mapping[str, list[str]]) -> str:
    """The verdict by its keys (reading id, parameter keys), in one of its two forms."""
    error = kdistance.percent(float(state["validation_distance"]))
    reading = state["best"]
    if not math.isnan(error) and error <= space["verdict"]["max_error_pct"]:
        return f"reproduces under reading {reading} (validation median error {error:.0f} %)"
    mover = (top.get(DISTANCE) or ["(none)"])[0]
    shown = "n/a" if math.isnan(error) else f"{error:.0f} %"
    return (
        "no reading in the declared space reproduces it; "
        f"the closest is {reading} ({shown}); the parameter that moves it most is {mover}"
    )


def shortfalls(space: Space, state: Mapping[str, Any]) -> list[str]:
    """What the verdict rests on too little of: seeds, readings, validation values."""
    return evidence.shortfalls(
        len(space["seeds"]), int(state["readings"]), int(state["validation_values"])
    )


def words(space: Space, state: Mapping[str, Any], top: Mapping[str, list[str]]) -> str:
    """The verdict in words: the best reading's values and labels; 'not judged: ...' first when
    the space is too small to judge (the rule of the summary's CI column)."""
    study = space.study
    error = kdistance.percent(float(state["validation_distance"]))
    shown = "n/a" if math.isnan(error) else f"{error:.0f} %"
    reading = labels.reading(study, state["values"])
    if state["best"] == "a-priori":
        reading = f"the a-priori reading ({reading})"
    count = int(state["validation_values"])
    values = f"{count} value" + ("" if count == 1 else "s")
    short = shortfalls(space, state)
    limit = space["verdict"]["max_error_pct"]
    if short:
        return (
            f"{evidence.not_judged(short)}; best reading: {reading}, validation median error "
            f"{shown} over {values} (threshold {limit} %)"
        )
    if not math.isnan(error) and error <= limit:
        return f"reproduces under {reading} (validation median error {shown} over {values})"
    mover = (top.get(DISTANCE) or [])[:1]
    moved = labels.parameter(study, mover[0]) if mover else "(none)"
    return (
        f"no reading in the declared space reproduces it; the closest is {reading} ({shown}); "
        f"the parameter that moves it most is {moved}"
    )


def write(
    space: Space, sensitivity: Path, sens_state: Path, cal_state: Path, out: Path
) -> dict[str, Any]:
    """verdict.json from the sensitivity table and both stages' records."""
    table = pd.read_csv(sensitivity)
    sens = json.loads(sens_state.read_text(encoding="utf-8"))
    cal = json.loads(cal_state.read_text(encoding="utf-8"))
    top = top_parameters(table)
    verdict = {
        "verdict": words(space, cal, top),
        "verdict_keys": line(space, cal, top),
        "judged": not shortfalls(space, cal),
        "seeds": len(space["seeds"]),
        "readings": cal["readings"],
        "validation_values": cal["validation_values"],
        "reading": {"id": cal["best"], "values": cal["values"]},
        "train_distance": cal["train_distance"],
        "validation_distance": cal["validation_distance"],
        "validation_error_pct": round(kdistance.percent(cal["validation_distance"]), 3),
        "a_priori_train_distance": cal["a_priori_train_distance"],
        "a_priori_validation_distance": cal["a_priori_validation_distance"],
        "threshold_pct": space["verdict"]["max_error_pct"],
        "top_parameters": top,
        "in_ci_a_priori": cal["in_ci_a_priori"],
        "in_ci_calibrated": cal["in_ci_calibrated"],
        "values_compared": cal["values_compared"],
        "per_metric": cal["per_metric"],
        "runs": sens["runs"] + cal["runs"],
        "runs_made": sens["ran"] + cal["ran"],
        # This invocation's elapsed time (runs already current cost nothing), and the runs' own
        # simulate-and-parse times summed (serial, whenever they were made).
        "wall_s": round(sens["wall_s"] + cal["wall_s"], 3),
        "run_wall_s": round(sens["run_wall_s"] + cal["run_wall_s"], 3),
        "train": dict(space["train"]),
        "overrides": dict(space["overrides"]),
        "fitted": True,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(verdict, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return verdict
