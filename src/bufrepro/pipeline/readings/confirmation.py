"""Confirmation: the a-priori reading and calibration's best re-run at enough seeds to judge."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bufrepro.kit import distance as kdistance
from bufrepro.kit import fit as kfit
from bufrepro.pipeline import compare
from bufrepro.pipeline.readings import calibration
from bufrepro.pipeline.readings import runs as rruns
from bufrepro.pipeline.readings.space import Space


def chosen(cfg: Mapping[str, Any], space: Space, table: pd.DataFrame) -> list[rruns.Reading]:
    """The a-priori reading, then calibration's `confirmation.readings` best by train distance
    (ties by id), each at the confirmation's seeds; the values are the design's own (exact)."""
    seeds = space["confirmation"]["seeds"]
    ranked = table[table["reading"] != calibration.A_PRIORI].sort_values(
        ["train_distance", "reading"], kind="mergesort", na_position="last"
    )
    best = [str(r) for r in ranked["reading"].head(space["confirmation"]["readings"])]
    by_id = {r.id: r.values for r in calibration.make_readings(cfg, space)}
    ids = [calibration.A_PRIORI, *best]
    return [rruns.make(cfg, space, rid, by_id[rid], seeds) for rid in ids]


def stand_ins(space: Space) -> pd.DataFrame:
    """The design's readings in order, all at one distance: for planning before calibration has
    run, chosen() then takes the first ones (as many runs as the best ones, other folders)."""
    ids = [calibration.A_PRIORI] + [f"lhs{i:03d}" for i in range(space["calibration"]["readings"])]
    return pd.DataFrame({"reading": ids, "train_distance": [0.0] * len(ids)})


def evaluated(
    cfg: Mapping[str, Any], space: Space, reading: rruns.Reading, paper: Mapping[str, pd.DataFrame]
) -> tuple[pd.DataFrame, np.ndarray | None]:
    """A reading's diff (each repeated published row once) and its rows' per-seed means."""
    diff = rruns.evaluate(cfg, reading, paper)[1]
    per_seed = rruns.per_seed(cfg, reading, paper)
    kept = calibration.distinct(diff, space)
    rows = kept.index.to_numpy()
    return kept.reset_index(drop=True), (per_seed[rows] if per_seed is not None else None)


def judge(space: Space, diff: pd.DataFrame, per_seed: np.ndarray | None) -> list[dict[str, Any]]:
    """Each metric's validation median error, its bootstrap interval and outcome (kit.fit)."""
    held_out = ~kdistance.train_mask(diff, space["train"]).to_numpy()
    seeds = per_seed[held_out] if per_seed is not None else None
    part = diff[held_out].reset_index(drop=True)
    return [dataclasses.asdict(j) for j in kfit.judge(part, seeds, space["metrics"], space.rules)]


def run(
    cfg: Mapping[str, Any],
    space: Space,
    threads: int,
    calibrated: Path,
    table: Path,
    best_diff: Path,
    state: Path,
) -> pd.DataFrame:
    """Run the chosen readings; write confirmation.csv, the best one's diff and the state."""
    readings = chosen(cfg, space, pd.read_csv(calibrated))
    spent = rruns.run_all(cfg, readings, threads)
    paper = compare.published(space.study)
    rows, diffs = [], {}
    judged: dict[str, list[dict[str, Any]]] = {}
    for reading in readings:
        diff, per_seed = evaluated(cfg, space, reading, paper)
        diffs[reading.id] = diff
        judged[reading.id] = judge(space, diff, per_seed)
        train, valid = kdistance.split_distances(
            diff, space["metrics"], space["train"], space.rules
        )
        rows.append(
            {
                "reading": reading.id,
                "train_distance": train,
                "validation_distance": valid,
                "validation_error_pct": kdistance.percent(valid),
                "runs": len(rruns.specs(cfg, reading)),
                "in_ci": calibration.in_ci(diff),
                "values": len(diff),
                "validation_values": calibration.validation_values(diff, space),
            }
        )
    result = pd.DataFrame(rows)
    best = result.sort_values(["train_distance", "reading"], kind="mergesort").iloc[0]
    table.parent.mkdir(parents=True, exist_ok=True)
    result.to_csv(table, index=False, float_format="%.6g")
    diffs[str(best["reading"])].assign(reading=best["reading"]).to_csv(
        best_diff, index=False, float_format="%.6f"
    )
    values = {r.id: dict(r.values) for r in readings}
    worst = {rid: kfit.worst([kfit.Judged(**j) for j in js]) for rid, js in judged.items()}
    prior = result.iloc[0]
    info = {
        "best": str(best["reading"]),
        "values": values[str(best["reading"])],
        "a_priori_values": values[calibration.A_PRIORI],
        "confirmed": len(readings),
        "seeds": list(space["confirmation"]["seeds"]),
        "train_distance": float(best["train_distance"]),
        "validation_distance": float(best["validation_distance"]),
        "a_priori_train_distance": float(prior["train_distance"]),
        "a_priori_validation_distance": float(prior["validation_distance"]),
        "in_ci_a_priori": int(prior["in_ci"]),
        "in_ci_confirmed": int(best["in_ci"]),
        "validation_values": int(best["validation_values"]),
        "judged": judged,
        "outcome": kfit.overall([kfit.Judged(**j) for j in judged[str(best["reading"])]]),
        "best_validation_worst": min(worst.values(), default=math.nan),
        "best_validation_reading": min(worst, key=lambda r: (worst[r], r)) if worst else "",
        "unidentifiable": sorted(
            {
                *space.held,
                *kdistance.unidentifiable(
                    diffs[str(best["reading"])], space["train"], space.acts_on
                ),
            }
        ),
        "runs": spent.runs,
        "ran": spent.ran,
        "wall_s": spent.wall_s,
        "run_wall_s": spent.run_wall_s,
    }
    state.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return result
