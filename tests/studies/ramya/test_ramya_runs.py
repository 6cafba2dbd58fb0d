"""Real ns-2 runs of tiny ramya scenarios through the ns2 backend: frames vs packets, ping, RTT."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ramya_tiny import point, tiny_config

from bufrepro import backends
from bufrepro.backends.base import execute, write_inputs
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.tables import read_run
from bufrepro.pipeline import plan

pytestmark = pytest.mark.usefixtures("ns_available")


@pytest.fixture
def tiny_cfg() -> dict[str, Any]:
    return tiny_config()


def simulate(cfg: dict[str, Any], p: RunPoint, where: Path, keep: bool = False) -> Path:
    """Render, run ns-2 and parse one ramya run under `where`; return its folder."""
    spec = plan.spec(cfg, p, where)
    assert execute(backends.get("ns2", cfg), spec, keep) == "ran"
    return spec.run_dir


def test_one_frame_buffer_run_is_physical(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    row = read_run(simulate(tiny_cfg, point(tiny_cfg, "table5", 1, 1), tmp_path), "ns2")
    assert 0 < row["tcp_throughput_kbps"] <= 1000 * 1.001  # B2 = 1 Mb/s
    assert row["tcp_goodput_kbps"] < row["tcp_throughput_kbps"]  # 536 of 576 B are payload
    assert row["tcp_drops_queue"] > 0  # one frame of buffer overflows
    assert row["link_queue_max_pkts"] == 1  # at most one frame waits (ns-2 limit 2)
    # The RTT sample is never below the propagation RTT 2 x (2 + 20 + 2) ms.
    assert row["tcp_rtt_s_min"] >= 0.048 and row["tcp_rtt_samples"] > 10
    assert "ping_rtt_ms_mean" not in row  # no ping in table5


def test_ns2_queue_limit_counts_the_packet_on_the_wire(
    tiny_cfg: dict[str, Any], tmp_path: Path, patched_ns: Path
) -> None:
    # buffer_counts total: 1 frame -> ns-2 limit 1, and ns-2's DropTail then drops every packet.
    cfg = copy.deepcopy(tiny_cfg)
    cfg["ramya"]["topology"]["buffer_counts"] = "total"
    cfg["ramya"]["trace_level"] = "full"  # the text trace's events are read below
    spec = plan.spec(cfg, point(cfg, "table5", 1, 1), tmp_path)
    write_inputs(spec, *backends.get("ns2", cfg).scenario(spec))
    # the patched build: StreamSum writes the text trace's end line
    subprocess.run([str(patched_ns), "sim.tcl"], cwd=spec.run_dir, capture_output=True, check=True)
    lines = (spec.run_dir / "out.tr").read_text().splitlines()
    assert any(line.startswith("d ") and " 1 2 tcp " in line for line in lines)
    assert not any(line.startswith("r ") and " 1 2 tcp " in line for line in lines)


def test_ping_through_a_large_buffer(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    small = read_run(simulate(tiny_cfg, point(tiny_cfg, "latency", 10, 1), tmp_path), "ns2")
    large = read_run(
        simulate(tiny_cfg, point(tiny_cfg, "latency", 100, 1, rwnd_bytes=102400), tmp_path), "ns2"
    )
    assert small["ping_sent"] == pytest.approx(500, abs=2)  # every 10 ms for 5 s
    assert small["ping_rtt_ms_mean"] >= 48  # at least the propagation RTT
    assert large["ping_rtt_ms_mean"] > 2 * small["ping_rtt_ms_mean"]  # the queue adds delay
    # The QueueMonitor samples and the trace's time average describe the same queue.
    assert large["qmon_queue_avg_pkts"] == pytest.approx(large["link_queue_avg_pkts"], rel=0.1)


def test_only_the_queue_samples_are_kept(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    run = simulate(tiny_cfg, point(tiny_cfg, "latency", 10, 1), tmp_path)
    names = {p.name for p in run.iterdir()}
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv", "queue.tr"} <= names
    assert not {"out.tr", "rtt.tr", "ping.tr"} & names  # temporary unless keep_traces


def test_same_seed_same_run(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    p = point(tiny_cfg, "latency", 10, 1)
    a = simulate(tiny_cfg, p, tmp_path / "a", keep=True)
    b = simulate(tiny_cfg, p, tmp_path / "b", keep=True)
    c = simulate(tiny_cfg, point(tiny_cfg, "latency", 10, 2), tmp_path / "c", keep=True)
    assert (a / "metrics.tsv").read_bytes() == (b / "metrics.tsv").read_bytes()
    assert (a / "ping.tr").read_bytes() != (c / "ping.tr").read_bytes()
