"""What a run spent (its runs' recorded CPU per study and stage) and what it left out."""

from __future__ import annotations

import json
from pathlib import Path

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration, spent


def _run(path: Path, cpu: float) -> None:
    path.mkdir(parents=True)
    (path / "run.json").write_text(json.dumps({"cpu_s": {"simulator": cpu, "parser": 0.5}}))


def test_runs_are_summed_per_study_and_stage(tmp_path: Path) -> None:
    _run(tmp_path / "hstcp/runs/s1/DropTail/frac0.1/seed1", 2.0)
    _run(tmp_path / "hstcp/runs/s1/DropTail/frac0.1/seed2", 3.0)
    _run(tmp_path / "hstcp/ns3/runs/s1/CoDel/frac0.1/seed1", 60.0)
    _run(tmp_path / "hstcp/readings/runs/abc/s1/RED/frac0.2/seed1", 1.0)
    _run(tmp_path / "hstcp/band/s1/DropTail/frac0.01/seed1", 4.0)
    rows = spent.spent(tmp_path, ["hstcp"])
    by = {r["stage"]: (r["runs"], r["cpu_s"]) for r in rows}
    assert by == {
        "band": (1, 4.5),
        "grid on ns3": (1, 60.5),
        "readings": (1, 1.5),
        "grid": (2, 6.0),
    }


def test_the_default_runs_hstcp_on_ns3_apart_and_says_what_runs_the_rest() -> None:
    said = spent.left_out(configuration.load())
    assert len(said) == 1 and said[0].startswith("hstcp runs on ns-3 at its claims'")
    assert "config/ns3-hstcp.yaml" in said[0] and "twin runs" in said[0]
    assert spent.left_out(configuration.load(REPO_ROOT / "config" / "quick.yaml")) == []
    # The paper's rates on ns-3 share cells with ns-2's grid: nothing left out.
    assert spent.left_out(configuration.load(REPO_ROOT / "config" / "ns3-hstcp.yaml")) == []


def test_a_study_without_its_further_simulator_is_named() -> None:
    cfg = configuration.load()
    cfg["simulators"] = {**cfg["simulators"], "hstcp": ["ns2"]}
    said = spent.left_out(cfg)
    assert len(said) == 1 and said[0].startswith("hstcp on ns-3 is not run")


def test_apart_needs_a_key_whose_values_share_nothing() -> None:
    cfg = configuration.load()
    assert spent.apart(cfg, "hstcp", "ns3")
    cfg["simulator_grid"] = {"hstcp": {"ns3": {"scenario": ["s1", "s1_50mbps"]}}}
    assert not spent.apart(cfg, "hstcp", "ns3")
    assert not spent.apart(cfg, "dumbbell", "ns3")
