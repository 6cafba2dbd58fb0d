"""The claims judged on the best calibrated reading: real ns-2 runs of a tiny space, and the
table of a study whose readings are not evaluated."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from bufrepro.pipeline import configuration, report
from bufrepro.pipeline.readings import calibration, claims, space
from bufrepro.pipeline.readings import runs as rruns

SPACE: dict[str, Any] = {
    "parameters": {
        "tcp.max_rwnd_pkts": {"values": [3, 1000], "reason": "window-limited or not"},
    },
    "cells": {
        "queue": ["DropTail", "RED"],
        "plr": [0.05],
        "bottleneck_mbps": [0.5],
        "buffer": [5, 15],
    },
    "seeds": [1, 2],
    "overrides": {
        "measure.duration_s": 3,
        "measure.warmup_s": 1,
    },
    "metrics": ["tcp_delay_ms_mean", "tcp_throughput_kbps"],
    "train": {"seed_file": ["000"]},
    "sensitivity": {"trajectories": 2, "levels": 2, "seeds": [1]},
    "calibration": {"readings": 1},
    "verdict": {"max_error_pct": 25},
}


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory, ns_available: None) -> dict[str, Any]:
    """The calibration of a one-parameter space (2 readings x 4 cells x 2 seeds), then the
    calibrated claims written twice."""
    work = tmp_path_factory.mktemp("claims_calibrated")
    cfg = configuration.load(profile="")
    sp = space.validate(cfg, "dumbbell", {"dumbbell": SPACE})
    here = Path.cwd()
    try:
        os.chdir(work)
        out = Path("results/dumbbell")
        state = out / "readings/calibration.json"
        calibration.run(
            cfg, sp, 2, out / "tables/calibration.csv", out / "tables/diff_calibrated.csv", state
        )
        target = out / "tables/claims_calibrated.csv"
        table = claims.write(cfg, "dumbbell", sp, state, target)
        first = target.read_bytes()
        claims.write(cfg, "dumbbell", sp, state, target)
        return {
            "work": work,
            "table": table,
            "state": json.loads(state.read_text()),
            "bytes": (first, target.read_bytes()),
            "cal": pd.read_csv(out / "tables/calibration.csv"),
        }
    finally:
        os.chdir(here)


def test_every_claim_is_judged_on_the_best_reading_and_marked_fitted(
    judged: dict[str, Any],
) -> None:
    table: pd.DataFrame = judged["table"]
    assert list(table.columns[: len(claims.BASE)]) == list(claims.BASE)
    assert set(claims.EXTRA) <= set(table.columns)
    assert "shape_verdict" in table.columns  # the study's own columns are kept
    assert table["fitted"].eq(True).all()
    assert table["reading"].eq(judged["state"]["best"]).all()
    assert table["validation_distance"].eq(judged["state"]["validation_distance"]).all()
    assert table["reason"].eq("").all()
    # The tiny cells hold buffers 5 and 15 of one block per queue: small_buffers_better has one
    # comparison in each; no cell has a second plr, so loss_lowers_throughput is untestable.
    row = table[table["claim"] == "small_buffers_better"]
    assert row["comparisons"].astype(int).tolist() == [1, 1]
    # a test on the reading's per-seed values (kit.verdicts): any outcome of its vocabulary
    assert set(row["verdict"]) <= {"holds", "fails", "no meaningful difference", "undecided"}
    assert table[table["claim"] == "loss_lowers_throughput"]["verdict"].eq("untestable").all()


def test_the_a_priori_reading_is_judged_on_the_same_cells(judged: dict[str, Any]) -> None:
    table: pd.DataFrame = judged["table"]
    cal: pd.DataFrame = judged["cal"]
    assert set(cal["reading"]) == {"a-priori", "lhs000"}
    assert set(table["a_priori_cells_verdict"]) <= {
        "holds",
        "partly",
        "fails",
        "no meaningful difference",
        "undecided",
        "untestable",
    }
    if judged["state"]["best"] == "a-priori":
        assert table["a_priori_cells_verdict"].tolist() == table["verdict"].tolist()


def test_same_runs_give_a_byte_identical_table(judged: dict[str, Any]) -> None:
    first, again = judged["bytes"]
    assert first == again


def test_the_report_shows_the_fitted_verdict_beside_the_a_priori_one(
    judged: dict[str, Any],
) -> None:
    shown = report.calibrated_claims(judged["work"] / "results/dumbbell/tables")
    assert shown["reading"] == judged["state"]["best"]
    key = "small_buffers_better|DropTail"
    assert shown["by_claim"][key]["verdict"] in (
        "holds",
        "fails",
        "no meaningful difference",
        "undecided",
    )
    assert shown["validation_error_pct"] >= 0


def test_missing_runs_name_the_reading(tmp_path: Path) -> None:
    cfg = configuration.load(profile="")
    sp = space.validate(cfg, "dumbbell", {"dumbbell": SPACE})
    reading = claims.rruns.make(cfg, sp, "lhs007", {"tcp.max_rwnd_pkts": 3})
    here = Path.cwd()
    try:
        os.chdir(tmp_path)
        with pytest.raises(FileNotFoundError, match="reading lhs007 of dumbbell: 8 runs not made"):
            claims.judged(cfg, reading, {})
    finally:
        os.chdir(here)


def test_a_study_not_evaluated_gets_one_row_with_the_reason(tmp_path: Path) -> None:
    cfg = configuration.load(profile="")
    out = tmp_path / "claims_calibrated.csv"
    reason = "readings declared but not evaluated (evaluate: false in config/readings/ramya.yaml)"
    claims.write(cfg, "ramya", None, None, out, reason)
    table = pd.read_csv(out, keep_default_na=False)
    assert len(table) == 1
    assert table["reason"].iloc[0] == reason
    assert table["verdict"].iloc[0] == "not judged"
    shown = report.calibrated_claims(tmp_path)
    assert shown == {"reason": reason, "by_claim": {}}


def test_the_best_reading_names_the_folder_its_runs_were_made_in() -> None:
    """calibration.json stores 10 as 10.0: the claims rebuild each reading's values as the
    calibration made them, so they find the calibration's run folders (hstcp's access_ratio)."""
    cfg = configuration.load(profile="quick")
    sp = space.load(cfg, "hstcp", space.files("hstcp", "quick"))
    for i, values in enumerate(calibration.design(sp)):
        rid = f"lhs{i:03d}"
        made = rruns.make(cfg, sp, rid, values).folder
        assert rruns.make(cfg, sp, rid, claims._values(cfg, sp, rid)).folder == made
