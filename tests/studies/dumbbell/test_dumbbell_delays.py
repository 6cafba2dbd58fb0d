"""The delay definitions: the published "delay" read from the same runs' metrics, no extra run."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from bufrepro import backends
from bufrepro.backends.base import execute
from bufrepro.kit import tables
from bufrepro.pipeline import plan
from bufrepro.studies.dumbbell import STUDY, delays

pytestmark = pytest.mark.usefixtures("ns_available")


def _block(cfg: dict[str, Any], definition: str, application: str = "FTP") -> dict[str, Any]:
    block = cfg["dumbbell"]
    return {
        **block,
        "tcp": {**block["tcp"], "application": application},
        "compare": {"delay_definition": definition},
    }


@pytest.mark.parametrize(
    ("definition", "application", "metric"),
    [
        ("auto", "FTP", "tcp_delay_ms_mean"),
        ("auto", "HTTP", "http_response_ms_mean"),
        ("one_way_data", "HTTP", "http_data_delay_ms_mean"),
        ("one_way_all", "FTP", "delay_all_ms_mean"),
        ("rtt", "HTTP", "delay_rtt_ms_mean"),
    ],
)
def test_the_delay_column_reads_the_chosen_metric(
    tiny_cfg: dict[str, Any], definition: str, application: str, metric: str
) -> None:
    mapping = delays.published_metrics(_block(tiny_cfg, definition, application))
    assert mapping["tcp_delay_ms"] == metric
    assert set(mapping.values()) <= set(STUDY.reported)
    lost = "http_drops_total" if application == "HTTP" else "tcp_drops_total"
    assert mapping["packets_lost"] == lost


def _kept_run(cfg: dict[str, Any], where: Path) -> Path:
    cfg["dumbbell"]["trace_level"] = "full"  # the text trace: its packets are read here
    point = STUDY.runs(cfg["dumbbell"])[0]
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    assert execute(backends.get("ns2", cfg), spec, True) == "ran"
    return where


def _from_trace(where: Path, program: str) -> list[float]:
    out = subprocess.run(
        ["gawk", program, "out.tr"], cwd=where, capture_output=True, text=True, check=True
    )
    return [float(x) for x in out.stdout.split()]


# One-way delays (ms) of the data packets (tcp and cbr) sent in [1, 5] s and received at their
# destination node; and of every ACK, first '+' at node 6 to its receipt.
ALL_DELAYS = r"""
NR > 1 && $5 != "ack" {
    s = int($9); d = int($10)
    if ($1 == "+" && $3 == s && !($12 in at)) at[$12] = $2
    else if ($1 == "r" && $4 == d && ($12 in at)) {
        if (at[$12] >= 1 && at[$12] <= 5) print ($2 - at[$12]) * 1000
        delete at[$12]
    }
}"""
ACK_DELAYS = r"""
NR > 1 && $5 == "ack" {
    if ($1 == "+" && $3 == 6 && !($12 in at)) at[$12] = $2
    else if ($1 == "r" && $4 == int($10) && ($12 in at)) {
        print ($2 - at[$12]) * 1000; delete at[$12]
    }
}"""


def test_derived_delays_match_the_trace(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    where = _kept_run(tiny_cfg, tmp_path / "a")
    row = tables.read_run(where, "ns2")
    runs = pd.DataFrame([{**row, "bottleneck_mbps": 0.5}])
    made = delays.derived_runs(_block(tiny_cfg, "one_way_all"), runs).iloc[0]
    every = _from_trace(where, ALL_DELAYS)
    # Over all packets: exactly the mean over TCP data and CBR packets (printed to 1 us).
    assert made["delay_all_ms_mean"] == pytest.approx(sum(every) / len(every), abs=1e-3)
    assert made["delay_all_ms_mean"] != pytest.approx(row["tcp_delay_ms_mean"], abs=1e-3)
    # The RTT's ACK half, the reverse path's floor: no ACK is faster (to the trace's 1 us), and
    # their mean is within 1 % of it (an ACK waits at most behind one other, 0.64 ms here).
    acks = _from_trace(where, ACK_DELAYS)
    floor = float(delays.ack_one_way_ms(tiny_cfg["dumbbell"], pd.Series([0.5])).iloc[0])
    assert len(acks) > 100 and min(acks) > floor - 2e-3
    assert sum(acks) / len(acks) < floor * 1.01
    assert made["delay_rtt_ms_mean"] == pytest.approx(row["tcp_delay_ms_mean"] + floor)


def test_a_derived_definition_adds_its_rows_and_changes_only_the_delay(
    tiny_cfg: dict[str, Any],
) -> None:
    runs = pd.DataFrame(
        {
            "queue": ["RED"] * 2,
            "plr": [0.05] * 2,
            "bottleneck_mbps": [0.5] * 2,
            "buffer": [5] * 2,
            "seed": [1, 2],
            "tcp_delay_ms_mean": [100.0, 200.0],
            "tcp_delay_pkts": [30, 10],
            "cbr_delay_ms_mean": [20.0, 40.0],
            "cbr_delay_pkts": [10, 10],
        }
    )
    block = _block(tiny_cfg, "one_way_all")
    summary = delays.with_definition(block, pd.DataFrame(columns=["metric"]), runs)
    # (100*30 + 20*10) / 40 = 80 and (200*10 + 40*10) / 20 = 120: mean 100.
    assert summary.loc[summary["metric"] == "delay_all_ms_mean", "mean"].tolist() == [100.0]
    same = delays.with_definition(_block(tiny_cfg, "auto"), summary, runs)
    assert same is summary


def test_the_delay_definition_reuses_the_readings_runs(tiny_cfg: dict[str, Any]) -> None:
    """A reading that changes only compare.* has the same run folder: no run is made again."""
    from bufrepro.pipeline.readings import runs as rruns
    from bufrepro.pipeline.readings.space import Space

    raw = {"overrides": {}, "cells": {}, "seeds": [1, 2]}
    space = Space("dumbbell", raw)
    folders = {
        rruns.make(tiny_cfg, space, d, {"compare.delay_definition": d}).folder
        for d in ("auto", "one_way_all", "rtt")
    }
    assert len(folders) == 1
    http = rruns.make(tiny_cfg, space, "h", {"tcp.application": "HTTP"}).folder
    assert http not in folders
