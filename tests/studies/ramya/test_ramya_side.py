"""awk/ramya/side.awk on hand-made side files: the TCP agent's RTT samples, pings, queue samples."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.usefixtures("ns_available")

# One RTT sample inside any window from 0 to 1 s, for the runs whose subject is another file.
ONE_RTT = "0.50000  0  0  3  0  rtt_ 0.050 \n"


def side(
    tmp_path: Path, rtt: str, ping: str, queue: str, **params: object
) -> subprocess.CompletedProcess[str]:
    files = []
    for name, text in (("rtt.tr", rtt), ("ping.tr", ping), ("queue.tr", queue)):
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    args = ["gawk", "-f", str(REPO / "awk" / "ramya" / "side.awk")]
    for key, value in params.items():
        args += ["-v", f"{key}={value}"]
    env = {**os.environ, "LC_ALL": "C", "AWKPATH": str(REPO / "awk" / "lib")}
    return subprocess.run([*args, *files], capture_output=True, text=True, check=False, env=env)


def parsed(proc: subprocess.CompletedProcess[str]) -> dict[str, float]:
    assert proc.returncode == 0, proc.stderr
    return {k: float(v) for k, v in (line.split("\t") for line in proc.stdout.splitlines())}


def test_rtt_skips_the_initial_zero_and_other_variables(tmp_path: Path) -> None:
    log = (
        "0.00000  0  0  3  0  rtt_ 0.000 \n"
        "0.50000  0  0  3  0  rtt_ 0.050 \n"
        "0.60000  0  0  3  0  cwnd_ 4.000 \n"
        "1.00000  0  0  3  0  rtt_ 0.070 \n"
        "9.00000  0  0  3  0  rtt_ 0.900 \n"
    )
    m = parsed(side(tmp_path, log, "", "", t0=0, t1=5))
    assert m["tcp_rtt_samples"] == 2
    assert m["tcp_rtt_s_mean"] == pytest.approx(0.06)
    assert m["tcp_rtt_s_min"] == 0.05 and m["tcp_rtt_s_max"] == 0.07
    assert side(tmp_path, log, "", "", t0=2, t1=5).returncode == 3  # no sample: an error


def test_ping_counts_losses_and_ignores_duplicates(tmp_path: Path) -> None:
    log = (
        "s 0.01 0\ns 0.02 1\ns 0.03 2\ns 0.04 3\n"
        "r 0.09 0 30.0 20.0\nr 0.10 1 40.0 20.0\nr 0.11 1 99.0 99.0\n"
        "r 0.20 3 100.0 60.0\n"
    )
    m = parsed(side(tmp_path, ONE_RTT, log, "", t0=0, t1=1))
    assert m["ping_sent"] == 4 and m["ping_received"] == 3
    assert m["ping_loss_rate"] == pytest.approx(0.25)
    assert m["ping_rtt_ms_mean"] == pytest.approx((50 + 60 + 160) / 3)
    assert m["ping_fwd_ms_mean"] == pytest.approx((30 + 40 + 100) / 3)
    assert m["ping_rtt_ms_max"] == 160
    no_ping = parsed(side(tmp_path, ONE_RTT, "", "", t0=0, t1=1))
    assert not [k for k in no_ping if k.startswith("ping_")]  # no ping: no ping metrics


def test_queue_samples(tmp_path: Path) -> None:
    m = parsed(side(tmp_path, ONE_RTT, "", "0 0\n0.1 4\n0.2 8\n5 100\n", t0=0, t1=1))
    assert m["qmon_samples"] == 3 and m["qmon_queue_avg_pkts"] == 4
    assert m["qmon_queue_max_pkts"] == 8
