"""End to end on two simulators: Snakemake runs the tiny dumbbell grid on ns-2 and ns-3, and
writes and shows the cross-simulator tables."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from bufrepro.backends.simulators import ns3
from bufrepro.kit import configs
from conftest import TINY, copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")


@pytest.fixture(scope="module")
def two_sims(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if ns3.missing():
        pytest.fail(ns3.missing())
    work = copy_repo(tmp_path_factory.mktemp("wf3") / "repo")
    cfg = configs.merge(
        TINY,
        {
            "studies": ["dumbbell"],
            "simulators": {"dumbbell": ["ns2", "ns3"]},
            # the papers' queues at the grid's seeds (the default's eight queues at five seeds:
            # test_simulator_grid)
            "simulator_queues": {"dumbbell": {"ns3": ["DropTail", "RED"]}},
            "simulator_grid": {"dumbbell": {"ns3": {"seeds": [1, 2, 3]}}},
            "dumbbell": {"seeds": [1, 2, 3]},
        },
    )
    (work / "tiny.yaml").write_text(yaml.safe_dump(cfg))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return work


def test_both_simulators_run_and_are_compared(two_sims: Path) -> None:
    study = two_sims / "results" / "dumbbell"
    run = study / "ns3" / "runs" / "RED" / "plr0.05" / "bw0.5" / "buf15" / "seed2"
    assert {"sim.args", "params.json", "run.json", "metrics.tsv"} <= {p.name for p in run.iterdir()}
    meta = json.loads((run / "run.json").read_text())
    assert meta["simulator"] == "ns3" and meta["simulator_version"] == "ns-3.37"
    assert json.loads((study / "ns3" / "provenance.json").read_text())["ns_versions"] == ["ns-3.37"]
    cross = pd.read_csv(study / "tables" / "cross_sim.csv", keep_default_na=False)
    assert len(cross) == 2 * 3 * 8  # queues x buffers x report metrics
    assert {"ns2_mean", "ns3_mean", "ratio", "how", "agree"} <= set(cross.columns)
    counts = pd.read_csv(study / "tables" / "cross_sim_counts.csv")
    assert (counts["cells"] == 6).all()
    judged = counts["agree"] + counts["differ"] + counts["undecided"] + counts["not_judged"]
    assert (judged == 6).all()
    gap = pd.read_csv(study / "tables" / "cross_sim_published.csv")
    assert list(gap["simulator"]) == ["ns2", "ns3"]
    html = (two_sims / "report" / "index.html").read_text()
    assert "Cross-simulator: counts" in html
