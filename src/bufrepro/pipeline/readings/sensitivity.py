"""Morris screening (SALib) of each metric, and of the distance, to each parameter of a space."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from SALib.analyze import morris as morris_analyze  # type: ignore[import-untyped]
from SALib.sample import morris as morris_sample  # type: ignore[import-untyped]

from bufrepro.kit import distance as kdistance
from bufrepro.kit import space as kspace
from bufrepro.pipeline import compare
from bufrepro.pipeline.readings import calibration
from bufrepro.pipeline.readings import runs as rruns
from bufrepro.pipeline.readings.space import Space

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The pseudo-metric screened beside the metrics: the reading's distance over all rows.
DISTANCE = "distance"
COLUMNS = ["parameter", "metric", "index", "value", "confidence"]


def _problem(space: Space) -> dict[str, Any]:
    names = [p.key for p in space.parameters]
    return {"num_vars": len(names), "names": names, "bounds": [[0.0, 1.0]] * len(names)}


def design(space: Space) -> np.ndarray:
    """The Morris design in the unit cube: trajectories x (k + 1) rows, one column a parameter."""
    sens = space["sensitivity"]
    return np.asarray(
        morris_sample.sample(
            _problem(space), N=sens["trajectories"], num_levels=sens["levels"], seed=sens["seed"]
        )
    )


def make_readings(cfg: Mapping[str, Any], space: Space, x: np.ndarray) -> list[rruns.Reading]:
    """The Morris design's readings (the screening's seeds and cells), each validated whole."""
    seeds, cells = space["sensitivity"]["seeds"], space["sensitivity"]["cells"]
    return [
        rruns.make(
            cfg, space, f"morris{i:03d}", kspace.reading(space.parameters, row), seeds, cells
        )
        for i, row in enumerate(x)
    ]


def outputs(
    summary: pd.DataFrame,
    diff: pd.DataFrame,
    metrics: Sequence[str],
    rules: Mapping[str, kdistance.Rule] | None = None,
) -> dict[str, float]:
    """Each metric's mean over cells of log(1 + our cell mean), and the distance over all rows.

    A metric the study's compare makes (not in the summary, e.g. a unit conversion) is taken
    from the diff's own means, one per compared row.
    """
    out = {}
    for m in metrics:
        means = pd.to_numeric(summary.loc[summary["metric"] == m, "mean"], errors="coerce")
        if means.empty:
            means = pd.to_numeric(diff.loc[diff["metric"] == m, "ours_mean"], errors="coerce")
        out[m] = float(np.log1p(means.clip(lower=0)).mean())
    out[DISTANCE] = kdistance.distance(diff, metrics, rules)
    return out


def analyse(space: Space, x: np.ndarray, y: Mapping[str, Sequence[float]]) -> pd.DataFrame:
    """mu_star (with its bootstrap confidence), sigma and mu per parameter and metric."""
    problem, sens, rows = _problem(space), space["sensitivity"], []
    for metric, values in y.items():
        arr = np.asarray(values, dtype=float)
        if not np.isfinite(arr).all():
            finite = np.isfinite(arr)
            arr = np.where(finite, arr, arr[finite].mean() if finite.any() else 0)
        res = morris_analyze.analyze(
            problem, x, arr, num_levels=sens["levels"], seed=sens["seed"], print_to_console=False
        )
        for i, name in enumerate(problem["names"]):
            rows += [
                [name, metric, "mu_star", float(res["mu_star"][i]), float(res["mu_star_conf"][i])],
                [name, metric, "sigma", float(res["sigma"][i]), math.nan],
                [name, metric, "mu", float(res["mu"][i]), math.nan],
            ]
    return pd.DataFrame(rows, columns=COLUMNS)


def heatmap(table: pd.DataFrame) -> Figure:
    """Parameter x metric heat map of mu_star, each metric scaled to its largest parameter."""
    import seaborn as sns

    from bufrepro.kit.figures import plt

    mu = table[table["index"] == "mu_star"].pivot(
        index="parameter", columns="metric", values="value"
    )
    mu = mu.reindex(index=list(dict.fromkeys(table["parameter"])))
    scaled = mu / mu.max().replace(0, np.nan)
    fig, ax = plt.subplots(
        figsize=(4.0 + 1.6 * len(mu.columns), 2.0 + 0.35 * len(mu)), layout="constrained"
    )
    sns.heatmap(scaled, annot=mu, fmt=".2g", cmap="viridis", vmin=0, vmax=1, ax=ax, cbar=True)
    ax.set_title("Morris mu* (colour: scaled to each metric's largest)")
    ax.set_xlabel("metric (cell-averaged log(1 + value)) and distance")
    ax.set_ylabel("parameter")
    ax.tick_params(axis="x", labelrotation=30)
    return fig


def save(fig: Figure, path: Path) -> None:
    """Write the figure reproducibly (kit.figures)."""
    from bufrepro.kit.figures import save as save_figure

    save_figure(fig, path)


def run(
    cfg: Mapping[str, Any], space: Space, threads: int, table: Path, figure: Path, state: Path
) -> pd.DataFrame:
    """Run the Morris design's readings, screen them, write the table, figure and state.

    Every reading of the stage, the calibration's too, is built (and so validated whole) first:
    a reading the study cannot run fails here, naming its key, before any reading's run."""
    x = design(space)
    readings = make_readings(cfg, space, x)
    calibration.make_readings(cfg, space)
    spent = rruns.run_all(cfg, readings, threads)
    paper = compare.published(space.study)
    y: dict[str, list[float]] = {}
    for reading in readings:
        summary, diff = rruns.evaluate(cfg, reading, paper)
        for metric, value in outputs(summary, diff, space["metrics"], space.rules).items():
            y.setdefault(metric, []).append(value)
    result = analyse(space, x, y)
    table.parent.mkdir(parents=True, exist_ok=True)
    result.to_csv(table, index=False, float_format="%.6g")
    figure.parent.mkdir(parents=True, exist_ok=True)
    save(heatmap(result), figure)
    info = {
        "readings": len(readings),
        "cells": {**space["cells"], **space["sensitivity"]["cells"]},
        "runs": spent.runs,
        "ran": spent.ran,
        "wall_s": spent.wall_s,
        "run_wall_s": spent.run_wall_s,
    }
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return result
