"""What a workflow run says it plans, and its warning when that is more than was asked."""

from __future__ import annotations

from bufrepro.pipeline.announce import plan_lines

KNOWN = ["dumbbell", "hstcp", "ramya", "vegas"]
RUNS = {"dumbbell": 72, "hstcp": 8, "ramya": 16, "vegas": 16}


def test_a_study_block_without_studies_warns_that_all_run() -> None:
    lines = plan_lines(KNOWN, RUNS, [], {"dumbbell": {"seeds": [1]}}, KNOWN)
    assert lines[0] == (
        "bufrepro plans: dumbbell (72 grid runs), hstcp (8 grid runs), ramya (16 grid runs), "
        "vegas (16 grid runs)"
    )
    assert "leaves `studies` at its default, so all 4 studies run" in lines[1]
    assert "--config 'studies=[dumbbell]'" in lines[1]


def test_no_warning_when_studies_is_given_or_nothing_is_named() -> None:
    assert len(plan_lines(["dumbbell"], RUNS, [], {"studies": ["dumbbell"]}, KNOWN)) == 1
    assert len(plan_lines(KNOWN, RUNS, [], {"profile": "quick"}, KNOWN)) == 1


def test_an_experiment_file_without_studies_warns_too() -> None:
    lines = plan_lines(KNOWN, RUNS, ["mine"], {"experiments": {"mine": {}}}, KNOWN)
    assert "experiment mine" in lines[0] and "--config 'studies=[]'" in lines[1]
    quiet = plan_lines([], RUNS, ["mine"], {"studies": [], "experiments": {"mine": {}}}, KNOWN)
    assert quiet == ["bufrepro plans: experiment mine"]
