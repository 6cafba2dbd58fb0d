"""CoDel, PIE and FQ-CoDel in the ns-3 programs, from first principles on real runs: under bulk
TCP overload with a buffer far above the BDP, each AQM holds its standing queue near its delay
target while FIFO fills the buffer."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bufrepro.backends.awk import PARSER_ENV, parser_command
from bufrepro.backends.simulators import ns3
from bufrepro.kit.paths import REPO_ROOT

# 10 flows, RTTs 115-125 ms, 50 Mb/s (the hstcp quick profile's s1), a buffer of 625 packets
# (one BDP): FIFO's queue grows to hundreds of packets; 1000 B take 0.16 ms at 50 Mb/s.
PKT_MS = 1000 * 8 / 50e6 * 1000
ARGS = [
    "--duration=8",
    "--warmup=4",
    "--end=8",
    "--bottleneckMbps=50",
    "--accessMbps=500",
    "--sinkMbps=500",
    "--waiting=625",
    "--bufferPkts=625",
    "--accessDelaysMs=6.75_7.25_7.75_8.25_8.75_9.25_9.75_10.25_10.75_11.25",
    "--startJitter=2",
    "--sockPkts=3000",
]


@pytest.fixture(scope="module")
def built() -> Path:
    if ns3.missing():
        pytest.fail(ns3.missing())
    subprocess.run(["bash", str(REPO_ROOT / "ns3" / "build.sh")], check=True)
    return ns3.prefix({}) / "hstcp"


def _metrics(program: Path, queue: str, where: Path) -> dict[str, float]:
    where.mkdir()
    subprocess.run(
        [str(program), *ns3.arguments(ns3.queue_arguments(queue, {})), *ARGS],
        cwd=where,
        check=True,
        capture_output=True,
    )
    args = {"t0": 4, "t1": 8, "t_end": 8, "from": 0, "to": 1, "bps": 50_000_000, "pkt": 1000}
    out = subprocess.run(
        parser_command("hstcp/hstcp.awk", args, ["bottleneck.fifo"]),
        cwd=where,
        env=PARSER_ENV,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {k: float(v) for k, v in (line.split("\t") for line in out.splitlines())}


def test_aqms_hold_their_target_where_fifo_fills_the_buffer(built: Path, tmp_path: Path) -> None:
    fifo = _metrics(built, "DropTail", tmp_path / "fifo")
    codel = _metrics(built, "CoDel", tmp_path / "codel")
    pie = _metrics(built, "PIE", tmp_path / "pie")
    fq = _metrics(built, "FQ-CoDel", tmp_path / "fq")
    assert fifo["queue_avg_pkts"] * PKT_MS > 40  # FIFO: tens of ms standing queue
    # CoDel and FQ-CoDel: target 5 ms; PIE: reference 15 ms (a factor 2 either way).
    for name, got, target in (("CoDel", codel, 5), ("FQ-CoDel", fq, 5), ("PIE", pie, 15)):
        sojourn = got["queue_avg_pkts"] * PKT_MS
        assert target / 2 <= sojourn <= 2 * target, (name, sojourn)
    for got in (fifo, codel, fq):
        assert got["link_utilisation"] > 0.9
    assert fq["jain_index"] > 0.9  # fair queueing: equal shares whatever the RTT
