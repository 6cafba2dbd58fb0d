"""The real ns-2 on tiny rendered scenarios: run, parse, determinism per seed, failure handling."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bufrepro import grid, metrics, render
from conftest import REPO

pytestmark = pytest.mark.usefixtures("ns_available")


def simulate(cfg: dict[str, Any], point: grid.RunPoint, where: Path) -> Path:
    """Render, run ns-2 and parse one run in `where`; return the folder."""
    where.mkdir(parents=True, exist_ok=True)
    render.write_run_inputs(render.run_record(cfg, point), where / "sim.tcl", where / "params.json")
    run = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "run_ns2.sh"),
            "ns",
            str(where / "sim.tcl"),
            str(where / "out.tr"),
            str(where / "run.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    m = cfg["dumbbell"]["measure"]
    parse = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "parse_trace.sh"),
            str(REPO / "awk"),
            str(where / "out.tr"),
            str(where / "metrics.tsv"),
            str(m["warmup_s"]),
            str(m["duration_s"]),
            str(m["duration_s"]),
            str(m["max_in_flight_age_s"]),
            "4",
            "5",
            str(int(point.get("bottleneck_mbps") * 1e6)),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert parse.returncode == 0, parse.stdout + parse.stderr
    return where


def _point(cfg: dict[str, Any], queue: str, buffer: int, seed: int) -> grid.RunPoint:
    return next(
        p
        for p in grid.expand(cfg, "dumbbell")
        if p.get("queue") == queue and p.get("buffer") == buffer and p.seed == seed
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_run_parses_and_is_physical(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    run = simulate(tiny_cfg, _point(tiny_cfg, "DropTail", 5, 1), tmp_path / "a")
    row = metrics.read_run(run)
    # The bottleneck cannot carry more than 0.5 Mb/s: TCP + CBR throughput below it.
    assert row["tcp_throughput_kbps"] + row["cbr_throughput_kbps"] <= 500 * 1.02
    assert 0.5 < row["link_utilisation"] <= 1.0 + 1e-6
    assert row["tcp_delay_ms_mean"] > 2 * 2 + 10  # at least the propagation delay
    assert row["acct_sent"] == row["acct_received"] + row["acct_dropped"] + row["acct_in_flight"]
    meta = json.loads((run / "run.json").read_text())
    assert meta["exit_code"] == 0 and meta["ns_version"] == "2.35" and meta["wall_s"] >= 0
    assert (run / "sim.tcl").exists() and json.loads((run / "params.json").read_text())["seed"] == 1


def test_same_seed_same_trace_other_seed_differs(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    a = simulate(tiny_cfg, _point(tiny_cfg, "RED", 15, 1), tmp_path / "a")
    b = simulate(tiny_cfg, _point(tiny_cfg, "RED", 15, 1), tmp_path / "b")
    c = simulate(tiny_cfg, _point(tiny_cfg, "RED", 15, 2), tmp_path / "c")
    assert digest(a / "out.tr") == digest(b / "out.tr")
    assert digest(a / "out.tr") != digest(c / "out.tr")


def test_error_model_drops_at_link_head(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    run = simulate(tiny_cfg, _point(tiny_cfg, "DropTail", 50, 1), tmp_path / "a")
    row = metrics.read_run(run)
    assert row["tcp_drops_link"] > 0  # plr 0.05 on the bottleneck


def test_failed_ns_run_fails_and_names_the_command(tmp_path: Path) -> None:
    (tmp_path / "sim.tcl").write_text("set ns [new Simulator]\nthis_is_not_tcl\n")
    proc = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "run_ns2.sh"),
            "ns",
            str(tmp_path / "sim.tcl"),
            str(tmp_path / "out.tr"),
            str(tmp_path / "run.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert f"reproduce with: cd {tmp_path} && ns sim.tcl" in proc.stdout
    assert not (tmp_path / "run.json").exists()


def test_ns_without_finish_marker_fails(tmp_path: Path) -> None:
    # ns exits 0 but never reaches the scenario's finish proc: treated as a failed run.
    (tmp_path / "sim.tcl").write_text("set f [open out.tr w]\nputs $f partial\nclose $f\nexit 0\n")
    proc = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "run_ns2.sh"),
            "ns",
            str(tmp_path / "sim.tcl"),
            str(tmp_path / "out.tr"),
            str(tmp_path / "run.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "finish marker: missing" in proc.stdout
