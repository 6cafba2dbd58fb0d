"""ns-2's twins of the scaled scenario's ns-3 cells: planned beside ns-3's, run outside the grid."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml
from hstcp_tiny import defaults, run_side, side_bound, tiny

from bufrepro.backends import factory
from bufrepro.pipeline import configuration, crosssim, plan
from bufrepro.studies.hstcp import STUDY, checks, sides, twin

NS2 = STUDY.declarations()["ns2"]


def _cells(points: list[object]) -> set[tuple[object, ...]]:
    return {(p.get("scenario"), p.get("queue"), p.get("buffer_frac"), p.seed) for p in points}  # type: ignore[attr-defined]


def test_the_default_twins_every_droptail_cell_ns3_runs() -> None:
    cfg = configuration.load()
    ns3 = [p for b in plan.batches(cfg, "hstcp", "ns3") for p in b if p.get("queue") == "DropTail"]
    points = sides.twin_points(cfg["hstcp"])
    assert len(points) == 4 * 5 and _cells(points) == _cells(ns3)
    # Outside the grid: its own folder, and the grid never runs the scaled scenario.
    assert all(p.run_dir.startswith("results/hstcp/twin/s1_50mbps/") for p in points)
    assert "s1_50mbps" not in {p.get("scenario") for p in STUDY.runs(cfg["hstcp"])}
    spec = factory.spec(side_bound(cfg["hstcp"], "twin"), points[0])
    assert spec.record["params"]["bottleneck_mbps"] == 50
    assert (spec.scenario, spec.parser, spec.stream) == (NS2.template, NS2.parser, NS2.stream)


def test_no_twin_no_run() -> None:
    block = defaults()["hstcp"]
    assert sides.twin_points({**block, "twin": None}) == []


def test_an_undefined_twin_scenario_is_named() -> None:
    block = tiny()["hstcp"]
    said = checks.scenario_problems({**block, "twin": {"scenario": ["s9"]}})
    assert any(p.startswith("config key hstcp.twin.scenario: 's9' is not defined") for p in said)


@pytest.mark.usefixtures("ns_available")
def test_one_job_runs_them_and_the_cross_simulator_side_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tiny()
    cfg["hstcp"]["twin"] = {"queue": ["DropTail"], "buffer_frac": [0.5], "seeds": [1]}
    cfg["hstcp"]["claims"]["plan_points"] = False
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(cfg))
    argv = ["--config", "config.yaml", "--runs", "twin_runs.csv", "--summary", "twin_summary.csv"]
    assert len(run_side(cfg, "twin")) == 1
    assert twin.main(argv) == 0
    summary = pd.read_csv("twin_summary.csv")
    assert set(summary["buffer_frac"]) == {0.5} and set(summary["queue"]) == {"DropTail"}
    assert "link_utilisation" in set(summary["metric"]) and set(summary["n"]) == {1}
    run = tmp_path / "results" / "hstcp" / "twin" / "s1" / "DropTail" / "frac0.5" / "seed1"
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv"} <= {p.name for p in run.iterdir()}
    # The own side of the cross-simulator table: the grid's summary and the twins'.
    Path("summary.csv").write_text(summary.head(1).to_csv(index=False))
    both = crosssim.reference(tmp_path, ["twin_summary"])
    assert len(both) == 1 + len(summary)
    # No twin configured: empty files, which the own side skips.
    cfg["hstcp"]["twin"] = None
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(cfg))
    assert twin.main(argv) == 0 and Path("twin_summary.csv").stat().st_size == 0
    assert len(crosssim.reference(tmp_path, ["twin_summary"])) == 1
