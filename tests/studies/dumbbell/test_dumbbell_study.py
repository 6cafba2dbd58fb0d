"""The dumbbell Study: its runs, run folders and declared files."""

from __future__ import annotations

from typing import Any

from bufrepro.studies.dumbbell import STUDY
from conftest import REPO

NS2 = STUDY.declarations()["ns2"]


def test_runs_are_grid_times_seeds(tiny_cfg: dict[str, Any]) -> None:
    runs = STUDY.runs(tiny_cfg["dumbbell"])
    assert len(runs) == 2 * 3 * 2  # queues x buffers x seeds
    dirs = {p.run_dir for p in runs}
    assert "results/dumbbell/runs/RED/plr0.05/bw0.5/buf15/seed2" in dirs
    assert runs[0].as_dict() == {
        "study": "dumbbell",
        "queue": "DropTail",
        "plr": 0.05,
        "bottleneck_mbps": 0.5,
        "buffer": 5,
        "seed": 1,
    }


def test_declared_files_exist() -> None:
    assert (REPO / "tcl" / NS2.template).is_file()
    assert (REPO / "config" / f"{STUDY.name}.schema.yaml").is_file()
    for name in STUDY.published_files():
        assert (REPO / "published" / name).is_file()
        assert (REPO / "published" / name.replace(".csv", ".spec.yaml")).is_file()
    for figure in STUDY.figures:
        assert (REPO / "report" / "captions" / STUDY.name / f"{figure}.rst").is_file()


def test_report_metrics_are_reported() -> None:
    assert set(STUDY.report_metrics) <= set(STUDY.reported)
