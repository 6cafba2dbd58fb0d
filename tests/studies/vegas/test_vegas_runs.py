"""Real runs of the patched ns-2 on a tiny vegas scenario, through the generic run steps."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from vegas_tiny import point, tiny_config

from bufrepro import backends
from bufrepro.backends.base import execute, write_inputs
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.tables import read_run
from bufrepro.pipeline import plan
from bufrepro.studies.vegas import STUDY

NS2 = STUDY.declarations()["ns2"]


@pytest.fixture
def tiny_cfg() -> dict[str, Any]:
    return tiny_config()


def simulate(cfg: dict[str, Any], p: RunPoint, where: Path, keep: bool = False) -> Path:
    """Render, run the patched ns-2 and parse one run in `where`; return it."""
    spec = dataclasses.replace(plan.spec(cfg, p), run_dir=where)
    assert execute(backends.get(STUDY.own_simulator(), cfg), spec, keep_traces=keep) == "ran"
    return where


@pytest.mark.usefixtures("patched_ns")
def test_a_run_is_physical(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    p = point(tiny_cfg, 1, setup="packet", variant="standard", packet_bytes=512)
    row = read_run(simulate(tiny_cfg, p, tmp_path / "a"), STUDY.own_simulator())
    assert row["acct_ok"] == 1 and row["ns_build"].startswith("ns-2.35+bufrepro")
    # The MAP - AR link (1 Mb/s) carries at most 1 Mb/s; 23 of the 35 s carry data.
    assert 100 < row["tcp_throughput_kbps"] < 1000 * 23 / 35
    # One way through the HA: 2 + 2 + 2 + 50 + 2 ms of links at least.
    assert row["tcp_delay_ms_mean"] > 58
    assert 90 < row["tcp_efficiency_pct"] <= 100
    assert row["delay_per_throughput"] == pytest.approx(
        row["tcp_delay_ms_mean"] / row["tcp_throughput_kbps"], rel=1e-5
    )
    series = pd.read_csv(tmp_path / "a" / "series.tsv", sep=" ", header=None)
    assert len(series) == 35 and series[1].iloc[:12].eq(0).all()  # nothing before the start
    assert series[1].mean() == pytest.approx(row["tcp_throughput_kbps"], rel=1e-4)
    assert not (tmp_path / "a" / "out.tr").exists()  # streamed: no trace on disk


@pytest.mark.usefixtures("patched_ns")
def test_rtt_sets_the_delay(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    own = STUDY.own_simulator()
    short = read_run(
        simulate(tiny_cfg, point(tiny_cfg, setup="rtt", rtt_ms=60), tmp_path / "s"), own
    )
    long = read_run(
        simulate(tiny_cfg, point(tiny_cfg, setup="rtt", rtt_ms=120), tmp_path / "l"), own
    )
    # 60 ms more round trip is 30 ms more one-way delay.
    assert long["tcp_delay_ms_mean"] - short["tcp_delay_ms_mean"] == pytest.approx(30, abs=5)


@pytest.mark.usefixtures("patched_ns")
def test_seed_and_spacing_change_the_run(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    where = {"setup": "packet", "packet_bytes": 256}
    std1 = point(tiny_cfg, 1, variant="standard", **where)
    a = simulate(tiny_cfg, std1, tmp_path / "a", keep=True)
    b = simulate(tiny_cfg, std1, tmp_path / "b", keep=True)
    c = simulate(tiny_cfg, point(tiny_cfg, 2, variant="standard", **where), tmp_path / "c")
    d = simulate(tiny_cfg, point(tiny_cfg, 1, variant="spacing", **where), tmp_path / "d", True)
    assert (a / "metrics.tsv").read_bytes() == (b / "metrics.tsv").read_bytes()
    assert (a / "metrics.tsv").read_bytes() != (c / "metrics.tsv").read_bytes()
    assert "$tcp set spacing_ 1" in (d / "sim.tcl").read_text()
    # The traces past their first line (the run's header, which differs anyway).
    body = [(r / "out.tr").read_bytes().split(b"\n", 1) for r in (a, d)]
    assert body[0][0] != body[1][0] and body[0][1] != body[1][1]


@pytest.mark.usefixtures("patched_ns", "ns_available")
def test_stock_ns_cannot_run_the_study(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    # The study needs the patch: Debian's ns has no spacing_, and the run fails with a
    # reproducing command instead of producing metrics.
    assert NS2.options["build"] == "patched"
    # At either trace level the backend runs the patched build whatever the option says (its
    # StreamSum writes the stream's end line); run on Debian's ns, the scenario stops.
    tiny_cfg["vegas"]["trace_level"] = "full"
    where = tmp_path / "stock"
    p = point(tiny_cfg, 1, setup="packet", variant="standard", packet_bytes=512)
    spec = dataclasses.replace(plan.spec(tiny_cfg, p), run_dir=where, options={"build": "stock"})
    backend = backends.get(STUDY.own_simulator(), tiny_cfg)
    assert backend.simulate(spec)[0].endswith("ns-patched")
    write_inputs(spec, *backend.scenario(spec))
    proc = subprocess.run(["ns", "sim.tcl"], cwd=where, capture_output=True, text=True)
    assert proc.returncode != 0 and "no Agent/TCP spacing_: run the patched ns-2" in proc.stderr
