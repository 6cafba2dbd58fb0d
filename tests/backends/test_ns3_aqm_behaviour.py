"""CoDel, PIE and FQ-CoDel from first principles on real ns-3 runs (seconds each): at light load
an AQM drops nothing; FQ-CoDel keeps a sparse flow's delay low beside bulk TCP; far above the
BDP an AQM's throughput and delay no longer depend on the buffer, while FIFO's delay grows."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends
from bufrepro.backends.awk import PARSER_ENV, parser_command
from bufrepro.backends.base import execute
from bufrepro.backends.simulators import ns3
from bufrepro.kit import configs, tables
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration, plan
from conftest import TINY, merged

AQMS = ("CoDel", "PIE", "FQ-CoDel")
PKT = 1000  # the hstcp program's data packet (bytes)


@pytest.fixture(scope="module")
def built() -> Path:
    """The programs, built by ns3/build.sh (reused when current); fails without libns3-dev."""
    if ns3.missing():
        pytest.fail(ns3.missing())
    subprocess.run(["bash", str(REPO_ROOT / "ns3" / "build.sh")], check=True)
    return ns3.prefix({})


def _hstcp(
    program: Path, where: Path, queue: str, mbps: int, waiting: int, args: dict[str, Any]
) -> dict[str, float]:
    """One run of ns3/hstcp.cc read by awk/hstcp/hstcp.awk; `sojourn_ms` added: the mean time
    a packet spends in the bottleneck queue by Little's law (mean queue / departure rate)."""
    where.mkdir()
    warmup, duration = args.pop("warmup"), args.pop("duration")
    argv = {
        **ns3.queue_arguments(queue, {}),
        "bottleneckMbps": mbps,
        "accessMbps": 10 * mbps,
        "sinkMbps": 10 * mbps,
        "waiting": waiting,
        "bufferPkts": waiting,
        "warmup": warmup,
        "duration": duration,
        "end": duration,
        **args,
    }
    subprocess.run(
        [str(program / "hstcp"), *(f"--{k}={v}" for k, v in argv.items())],
        cwd=where,
        check=True,
        capture_output=True,
    )
    parse = {"t0": warmup, "t1": duration, "t_end": duration, "from": 0, "to": 1}
    parse |= {"bps": mbps * 1_000_000, "pkt": PKT}
    out = subprocess.run(
        parser_command("hstcp/hstcp.awk", parse, ["bottleneck.fifo"]),
        cwd=where,
        env=PARSER_ENV,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    got = {k: float(v) for k, v in (line.split("\t") for line in out.splitlines())}
    rate_pps = got["link_utilisation"] * mbps * 1e6 / (8 * PKT)
    got["sojourn_ms"] = 1000 * got["queue_avg_pkts"] / rate_pps
    return got


# Light load: 2 flows (RTTs 115.5 and 124.5 ms) each held to 15 packets a round trip by its socket
# buffers, over 4 Mb/s (2 ms a packet): 2 x 15 / 0.12 s = 250 packets/s, half the link. Each
# window arrives as a burst; two bursts meeting stand above 5 waiting packets, 10 ms, twice
# CoDel's target (the FIFO control with 5 waiting drops them).
LIGHT = {
    "accessDelaysMs": "6.75_11.25",
    "sockPkts": 15,
    "startJitter": 1,
    "warmup": 2,
    "duration": 10,
}


@pytest.mark.parametrize("queue", AQMS)
def test_an_aqm_drops_nothing_at_light_load(built: Path, tmp_path: Path, queue: str) -> None:
    light = _hstcp(built, tmp_path / "light", queue, 4, 60, dict(LIGHT))
    assert light["drops"] == 0, light
    assert 0.4 <= light["link_utilisation"] <= 0.6, light  # light indeed: about half the link
    # Its bursts are real: a FIFO of 5 waiting packets, as large as 10 ms, drops some.
    fifo = _hstcp(built, tmp_path / "fifo", "DropTail", 4, 5, dict(LIGHT))
    assert fifo["drops"] > 0, fifo
    # The same AQM does drop once the same flows' windows are unbounded (the drops are counted).
    heavy = _hstcp(built, tmp_path / "heavy", queue, 4, 60, {**LIGHT, "sockPkts": 3000})
    assert heavy["drops"] > 0, heavy


# Overload far above the BDP: 10 bulk flows (RTTs 115.5-124.5 ms) over 2 Mb/s (4 ms a packet):
# BDP = 2e6 x 0.12 / 8000 = 30 packets; buffers of 4 x and 16 x the BDP.
BDP = 30
BULK = {
    "accessDelaysMs": "6.75_7.25_7.75_8.25_8.75_9.25_9.75_10.25_10.75_11.25",
    "sockPkts": 3000,
    "startJitter": 2,
    "warmup": 4,
    "duration": 12,
}
# An AQM holds its standing queue whatever the limit: from 4 x to 16 x BDP its utilisation moves
# by at most 2 points and its mean sojourn by at most 10 % (or 1 ms).
FLAT_UTIL, FLAT_DELAY_FRAC, FLAT_DELAY_MS = 0.02, 0.10, 1.0
# FIFO fills what it is given: 4 x the buffer at least doubles its sojourn.
FIFO_GROWTH = 2.0


def test_far_above_the_bdp_an_aqm_stops_depending_on_the_buffer(
    built: Path, tmp_path: Path
) -> None:
    got = {
        (q, k): _hstcp(built, tmp_path / f"{q}{k}", q, 2, k * BDP, dict(BULK))
        for q in ("DropTail", *AQMS)
        for k in (4, 16)
    }
    fifo4, fifo16 = got[("DropTail", 4)], got[("DropTail", 16)]
    assert fifo16["sojourn_ms"] >= FIFO_GROWTH * fifo4["sojourn_ms"], (fifo4, fifo16)
    for q in AQMS:
        small, large = got[(q, 4)], got[(q, 16)]
        assert abs(large["link_utilisation"] - small["link_utilisation"]) <= FLAT_UTIL, q
        bound = max(FLAT_DELAY_MS, FLAT_DELAY_FRAC * small["sojourn_ms"])
        assert abs(large["sojourn_ms"] - small["sojourn_ms"]) <= bound, (q, small, large)
        # and that standing queue is a fraction of FIFO's at the same buffer
        assert small["sojourn_ms"] < fifo4["sojourn_ms"] / 4, (q, small, fifo4)


def _dumbbell(queue: str, where: Path) -> dict[str, float]:
    """One dumbbell run on ns-3 through the backend's own steps: 3 bulk TCP flows and the CBR
    (1000 B every 0.4 s: 20 kb/s, a sparse flow) over 0.5 Mb/s, no loss, a buffer of 50."""
    over = {
        "simulators": {"dumbbell": ["ns2", "ns3"]},
        "simulator_queues": {"dumbbell": {"ns3": ["DropTail", "FQ-CoDel"]}},
        "dumbbell": {
            "seeds": [1],
            "grid": {"plr": [0.0], "bottleneck_mbps": [0.5], "buffer": [50]},
            "measure": {"duration_s": 20, "warmup_s": 5},
        },
    }
    cfg = configuration.validate(merged(configs.merge(TINY, over)))
    point = next(
        p for b in plan.batches(cfg, "dumbbell", "ns3") for p in b if p.get("queue") == queue
    )
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    assert execute(backends.get("ns3", cfg), spec) == "ran"
    return tables.read_run(where, "ns3")


# The CBR's one-way delay with nothing ahead of it: 2 + 10 + 2 ms of wires and 16 ms to send its
# 1002 B at 0.5 Mb/s (microseconds on the 1 Gb/s access links). FQ-CoDel serves a new sparse
# flow first, so at most two TCP packets (1502 B, 24 ms each) stand ahead of it: the one in
# service and the one in the device queue below the disc. Its mean: at most 14 + 16 + 48 ms.
SPARSE_BOUND_MS = 78
# A FIFO of 50 packets full of TCP holds 49 x 24 ms = 1.2 s: its mean at least 8 x the bound.
FIFO_FACTOR = 8


@pytest.mark.usefixtures("built")
def test_fq_codel_keeps_the_sparse_flow_fast_beside_bulk_tcp(tmp_path: Path) -> None:
    fq = _dumbbell("FQ-CoDel", tmp_path / "fq")
    fifo = _dumbbell("DropTail", tmp_path / "fifo")
    assert fq["cbr_delay_ms_mean"] <= SPARSE_BOUND_MS, fq["cbr_delay_ms_mean"]
    assert fifo["cbr_delay_ms_mean"] >= FIFO_FACTOR * SPARSE_BOUND_MS, fifo["cbr_delay_ms_mean"]
    # bulk TCP still fills the link beside it under both
    for got in (fq, fifo):
        assert got["link_utilisation"] > 0.9, got


def _pie_at(mbps: float, where: Path) -> dict[str, float]:
    """One dumbbell run on ns-3 under PIE: 10 bulk TCP flows and the CBR, no loss, a buffer of
    50 waiting packets, 6 s (2 s warm-up), at `mbps`."""
    over = {
        "simulators": {"dumbbell": ["ns2", "ns3"]},
        "simulator_queues": {"dumbbell": {"ns3": ["PIE"]}},
        # one seed on ns-3 too (the default's simulator_grid runs five)
        "simulator_grid": {"dumbbell": {"ns3": {"seeds": [1]}}},
        "dumbbell": {
            "seeds": [1],
            "grid": {"plr": [0.0], "bottleneck_mbps": [mbps], "buffer": [50]},
            "tcp": {"sources": 10},
            "measure": {"duration_s": 6, "warmup_s": 2},
        },
    }
    cfg = configuration.validate(merged(configs.merge(TINY, over)))
    (point,) = (p for b in plan.batches(cfg, "dumbbell", "ns3") for p in b)
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    assert execute(backends.get("ns3", cfg), spec) == "ran"
    return tables.read_run(where, "ns3")


# PIE's 15 ms reference in 1500 B packets: 62.5 at 50 Mb/s (0.24 ms a packet), above the buffer
# of 50, so the hard limit binds; 12.5 at 10 Mb/s (1.2 ms a packet), well below it.
BUFFER = 50


@pytest.mark.usefixtures("built")
def test_pie_fills_the_hard_limit_where_its_reference_exceeds_the_buffer(tmp_path: Path) -> None:
    fast = _pie_at(50, tmp_path / "fast")
    # the buffer binds: the most packets waiting reach the limit (measured: 50)
    assert fast["link_queue_max_pkts"] == BUFFER, fast["link_queue_max_pkts"]
    slow = _pie_at(10, tmp_path / "slow")
    # where the reference is 12.5 packets PIE holds its queue near it, far below the limit
    # (measured: 30 at most, 12.7 on average)
    assert slow["link_queue_max_pkts"] < 0.8 * BUFFER, slow["link_queue_max_pkts"]
    assert slow["link_queue_avg_pkts"] < 2 * 12.5, slow["link_queue_avg_pkts"]
    for got in (fast, slow):
        assert got["link_utilisation"] > 0.9, got
