"""The report's readings block: shown when the stage ran, absent otherwise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.pipeline import report


def test_the_readings_block_shows_verdict_tables_and_captions(
    tmp_path: Path, tiny_cfg: dict[str, Any]
) -> None:
    tables = tmp_path / "dumbbell" / "tables"
    tables.mkdir(parents=True)
    assert report.readings_section("dumbbell", tiny_cfg, tmp_path) == {}
    (tables / "verdict.json").write_text(json.dumps({"verdict": "no reading ...", "runs": 7}))
    pd.DataFrame({"reading": ["a-priori", "lhs000"], "train_distance": [1.0, 0.5]}).to_csv(
        tables / "calibration.csv", index=False
    )
    block = report.readings_section("dumbbell", tiny_cfg, tmp_path)
    assert block["verdict"]["verdict"] == "no reading ..."
    assert [t["name"] for t in block["tables"]] == ["calibration"]
    assert "training distance" in block["tables"][0]["caption"]
    assert block["figure"] == ""


def test_the_best_reading_is_listed_in_full_with_what_sets_it_apart(
    tmp_path: Path, tiny_cfg: dict[str, Any]
) -> None:
    tables = tmp_path / "dumbbell" / "tables"
    tables.mkdir(parents=True)
    reading = {
        "id": "lhs003",
        "values": {"tcp.max_rwnd_pkts": 5, "tcp.syn": True},
        "apart": ["tcp.max_rwnd_pkts"],
    }
    (tables / "verdict.json").write_text(json.dumps({"verdict": "v", "reading": reading}))
    block = report.readings_section("dumbbell", tiny_cfg, tmp_path)
    assert block["settings"] == [
        {"text": "receive window 5 packets", "apart": True},
        {"text": "SYN packet on", "apart": False},
    ]


def test_the_screening_names_its_cells_when_they_narrow_the_space(
    tmp_path: Path, tiny_cfg: dict[str, Any]
) -> None:
    tables = tmp_path / "hstcp" / "tables"
    tables.mkdir(parents=True)
    (tables / "verdict.json").write_text(json.dumps({"verdict": "v"}))
    assert report.readings_section("hstcp", tiny_cfg, tmp_path)["screening"] == {}
    state = tmp_path / "hstcp" / "readings" / "sensitivity.json"
    state.parent.mkdir(parents=True)
    cells = {"scenario": ["s1"], "queue": ["DropTail", "RED"]}
    state.write_text(json.dumps({"readings": 26, "runs": 156, "cells": cells}))
    block = report.readings_section("hstcp", tiny_cfg, tmp_path)
    assert block["screening"] == {"readings": 26, "runs": 156, "cells": cells}
