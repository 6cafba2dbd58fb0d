"""Calibration: a Latin hypercube of readings, train and held-out distances, the best one's diff."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from scipy.stats import qmc

from bufrepro.kit import configs
from bufrepro.kit import distance as kdistance
from bufrepro.kit import space as kspace
from bufrepro.pipeline import compare
from bufrepro.pipeline.readings import runs as rruns
from bufrepro.pipeline.readings.space import Space

A_PRIORI = "a-priori"


def design(space: Space) -> list[dict[str, Any]]:
    """The readings of the Latin hypercube (seeded), one value per parameter each."""
    cal = space["calibration"]
    params = space.parameters
    sampler = qmc.LatinHypercube(d=len(params), seed=cal["seed"])
    return [kspace.reading(params, row) for row in sampler.random(n=cal["readings"])]


def a_priori_values(cfg: Mapping[str, Any], space: Space) -> dict[str, Any]:
    """The study config's own value of every parameter (with the space's overrides applied)."""
    block = kspace.apply(cfg[space.study], space["overrides"])
    return {p.key: configs.get_dotted(block, p.key) for p in space.parameters}


def make_readings(cfg: Mapping[str, Any], space: Space) -> list[rruns.Reading]:
    """The a-priori reading, then the Latin hypercube's, each validated whole (ConfigError);
    the parameters no training row can move (space.held) keep their a-priori values."""
    prior = a_priori_values(cfg, space)
    chosen = [(A_PRIORI, prior)]
    held = {k: prior[k] for k in space.held}
    chosen += [(f"lhs{i:03d}", {**v, **held}) for i, v in enumerate(design(space))]
    return [rruns.make(cfg, space, rid, values) for rid, values in chosen]


def distinct(diff: pd.DataFrame, space: Space) -> pd.DataFrame:
    """The diff with each repeated published row (cell, metric, value, relation) once."""
    return kdistance.unique_rows(diff, list(space["cells"]))


def per_metric(diff: pd.DataFrame, space: Space) -> dict[str, float]:
    """Each metric's own train and validation median error (columns train_<m>,
    validation_<m>), by the space's rules, and the worst metric's validation error."""
    out = {}
    for metric in space["metrics"]:
        train, valid = kdistance.split_distances(diff, [metric], space["train"], space.rules)
        out[f"train_{metric}"], out[f"validation_{metric}"] = train, valid
    found = [v for k, v in out.items() if k.startswith("validation_") and not math.isnan(v)]
    out["validation_worst"] = max(found, default=math.nan)
    return out


def validation_values(diff: pd.DataFrame, space: Space) -> int:
    """The distinct held-out values a reading's validation rests on (zeros count)."""
    held_out = ~kdistance.train_mask(diff, space["train"]) & diff["metric"].isin(space["metrics"])
    return int((held_out & kdistance.log_errors(diff, space.rules).notna()).sum())


def in_ci(diff: pd.DataFrame) -> int:
    """Published values inside our 95% CI of the mean."""
    return int(diff["in_ci"].eq(True).sum())


def run(
    cfg: Mapping[str, Any], space: Space, threads: int, table: Path, best_diff: Path, state: Path
) -> pd.DataFrame:
    """Run the a-priori and the designed readings; write calibration.csv, the best diff, state."""
    readings = make_readings(cfg, space)
    spent = rruns.run_all(cfg, readings, threads)
    paper = compare.published(space.study)
    rows, diffs = [], {}
    for reading in readings:
        diff = distinct(rruns.evaluate(cfg, reading, paper)[1], space)
        diffs[reading.id] = diff
        train, valid = kdistance.split_distances(
            diff, space["metrics"], space["train"], space.rules
        )
        rows.append(
            {
                "reading": reading.id,
                **reading.values,
                "train_distance": train,
                "validation_distance": valid,
                "runs": len(rruns.specs(cfg, reading)),
                "in_ci": in_ci(diff),
                "values": len(diff),
                **per_metric(diff, space),
            }
        )
    result = pd.DataFrame(rows)
    best = result.sort_values(["train_distance", "reading"], kind="mergesort").iloc[0]
    table.parent.mkdir(parents=True, exist_ok=True)
    result.to_csv(table, index=False, float_format="%.6g")
    diffs[best["reading"]].assign(reading=best["reading"]).to_csv(
        best_diff, index=False, float_format="%.6f"
    )
    prior = result.iloc[0]
    by_validation = result.sort_values(
        ["validation_worst", "reading"], kind="mergesort", na_position="last"
    ).iloc[0]
    info = {
        "best": str(best["reading"]),
        "values": {p.key: _plain(best[p.key]) for p in space.parameters},
        "train_distance": float(best["train_distance"]),
        "validation_distance": float(best["validation_distance"]),
        "a_priori_train_distance": float(prior["train_distance"]),
        "a_priori_validation_distance": float(prior["validation_distance"]),
        "in_ci_a_priori": int(prior["in_ci"]),
        "in_ci_calibrated": int(best["in_ci"]),
        "values_compared": int(prior["values"]),
        "validation_values": validation_values(diffs[best["reading"]], space),
        "per_metric": {
            m: {
                f"{who}{part}": float(row[f"{part}_{m}"])
                for who, row in (("", best), ("a_priori_", prior))
                for part in ("train", "validation")
            }
            for m in space["metrics"]
        },
        "readings": len(readings),
        "best_validation_worst": float(by_validation["validation_worst"]),
        "best_validation_reading": str(by_validation["reading"]),
        "held": space.held,
        "runs": spent.runs,
        "ran": spent.ran,
        "wall_s": spent.wall_s,
        "run_wall_s": spent.run_wall_s,
    }
    state.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return result


def _plain(value: Any) -> Any:
    """A pandas/numpy scalar as a plain JSON value."""
    return value.item() if hasattr(value, "item") else value
