"""The readings rules under Snakemake: a tiny quick-profile space end to end; a bad space fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")

# The quick profile's dumbbell space made tinier still: one parameter, two cells, 3 s runs.
TINY_QUICK = {
    "dumbbell": {
        "select": ["tcp.max_rwnd_pkts"],
        "cells": {
            "queue": ["DropTail", "RED"],
            "plr": [0.05],
            "bottleneck_mbps": [0.5],
            "buffer": [5],
        },
        "overrides": {"measure.duration_s": 3, "measure.warmup_s": 1},
        "sensitivity": {"trajectories": 2, "levels": 2, "seeds": [1]},
        "calibration": {"readings": 2},
        "confirmation": {"readings": 1, "seeds": [1, 2, 3]},
    }
}
OUTPUTS = (
    "tables/sensitivity.csv",
    "tables/calibration.csv",
    "tables/diff_calibrated.csv",
    "tables/confirmation.csv",
    "tables/diff_confirmed.csv",
    "tables/verdict.json",
    "figures/sensitivity.png",
)
ARGS = ("--configfile", "config/quick.yaml", "--config", "studies=[dumbbell]")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = copy_repo(tmp_path_factory.mktemp("readings-wf") / "repo")
    target = repo / "config/profiles/quick/readings/dumbbell.yaml"
    merged = yaml.safe_load(target.read_text())
    merged["dumbbell"].update(TINY_QUICK["dumbbell"])
    target.write_text(yaml.safe_dump(merged))
    return repo


def test_the_quick_profile_runs_the_readings_stage(work: Path) -> None:
    dry = snakemake(work, "--cores", "2", "-n", *ARGS)
    assert dry.returncode == 0, dry.stderr[-3000:]
    for table in ("sensitivity", "calibration", "confirmation"):
        assert f"results/dumbbell/tables/{table}.csv" in dry.stdout
    proc = snakemake(work, "--cores", "2", "results/dumbbell/tables/verdict.json", *ARGS)
    assert proc.returncode == 0, proc.stderr[-4000:]
    for name in OUTPUTS:
        assert (work / "results/dumbbell" / name).is_file(), name
    verdict = json.loads((work / "results/dumbbell/tables/verdict.json").read_text())
    # Morris 2 x (1 + 1) readings x 2 cells x 1 seed, calibration 3 readings x 2 cells x 2 seeds,
    # confirmation 2 readings x 2 cells x 3 seeds (of them only seed 3 is new).
    assert verdict["runs"] == 2 * 2 + 3 * 2 * 2 + 2 * 2 * 3
    assert verdict["confirmation_runs"] == 12 and verdict["confirmed"] == 2
    assert verdict["verdict"].startswith("not judged: n < 5 seeds, 3 readings (< 10); ")
    assert "`bash scripts/reproduce.sh` judges it" in verdict["verdict"]
    assert verdict["overrides"] == {"measure.duration_s": 3, "measure.warmup_s": 1}


def test_the_quick_profile_has_every_studys_readings_rules(work: Path) -> None:
    # The rules (one each, a {study} wildcard) plan only the spaces the stage evaluates
    # (evaluate: true, cells covered): every study of the quick profile's.
    dry = snakemake(work, "--cores", "2", "-n", "--configfile", "config/quick.yaml")
    assert dry.returncode == 0, dry.stderr[-3000:]
    for study in ("dumbbell", "ramya", "vegas", "hstcp"):
        for made in (
            "tables/sensitivity.csv",
            "tables/calibration.csv",
            "tables/confirmation.csv",
            "tables/verdict.json",
        ):
            assert f"results/{study}/{made}" in dry.stdout, f"{study}: {made}"
    assert "not evaluated" not in dry.stderr


def test_snakemakes_report_plans_without_cores(work: Path) -> None:
    # `snakemake --report` gives no --cores: the readings rules' threads must not need them.
    proc = snakemake(work, "--report", "sm-report.html", *ARGS)
    assert "requires a total number of cores" not in proc.stderr + proc.stdout


def test_a_bad_space_fails_before_any_job_naming_key_and_values(work: Path) -> None:
    path = work / "config/readings/dumbbell.yaml"
    original = path.read_text()
    try:
        text = original.replace("values: [Sack1, Newreno, Reno]", "values: [Sack1, Cubic]")
        assert text != original
        path.write_text(text)
        proc = snakemake(work, "--cores", "1", "-n", *ARGS)
    finally:
        path.write_text(original)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "dumbbell.parameters.tcp.agent: value 'Cubic' is not allowed" in out
    assert "['Sack1', 'Newreno', 'Reno']" in out
