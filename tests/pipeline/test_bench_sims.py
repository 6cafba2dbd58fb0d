"""The simulators' benchmark on the tiny dumbbell grid: every cell's ns-3 run, stream off, ns-2."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from bufrepro.backends.simulators import ns3
from bufrepro.kit import configs
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import bench_sims, configuration, plan
from conftest import TINY, merged

pytestmark = pytest.mark.usefixtures("ns_available")


@pytest.fixture(scope="module")
def built() -> None:
    if ns3.missing():
        pytest.fail(ns3.missing())
    subprocess.run(["bash", str(REPO_ROOT / "ns3" / "build.sh")], check=True)


@pytest.mark.usefixtures("built")
def test_rows_cover_every_cell_with_three_costs(tmp_path: Path) -> None:
    over = configs.merge(TINY, {"simulators": {"dumbbell": ["ns2", "ns3"]}})
    cfg = configuration.validate(merged(over))
    rows = bench_sims.rows(cfg, "dumbbell", tmp_path)
    assert (
        len(rows) == 8 * 3
    )  # the default's eight ns-3 queues (five, three scaled) x buffers, one seed
    for row in rows:
        assert row["run"] > 0 and row["off"] > 0
        assert row["other"] == "ns3" and row["own_name"] == "ns2"
    # ns-2 runs the papers' queues only: today's AQMs have no own run to compare with.
    own = [r for r in rows if not math.isnan(r["own"])]
    assert len(own) == 2 * 3 and all(r["own"] > 0 for r in own)
    assert {r["cell"].split("/")[0] for r in own} == {"DropTail", "RED"}


@pytest.mark.usefixtures("built")
def test_the_documented_command_runs() -> None:
    """docs/ns3.md's command: every quick-profile cell of both studies, with the totals."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bufrepro.cli",
            "bench",
            "--simulators",
            "--studies",
            "dumbbell,hstcp",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cfg = configuration.load(profile="quick")  # as the bench loads it: config/profiles/quick/
    cells = {
        s: sum(p.seed == cfg[s]["seeds"][0] for b in plan.batches(cfg, s, "ns3") for p in b)
        for s in ("dumbbell", "hstcp")
    }
    assert f"all {cells['dumbbell']} cells:" in out and f"all {cells['hstcp']} cells:" in out
    assert "the 24 cells ns2 runs too" in out  # the dumbbell's DropTail and RED cells
