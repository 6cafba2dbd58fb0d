"""One hstcp run from the config: the paper's grid, flows, buffers, golden TCL, parser variables."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hstcp_tiny import defaults, point

from bufrepro.kit.templates import environment
from bufrepro.studies.hstcp import STUDY, params
from bufrepro.studies.hstcp.model.fixed_point import buffer_packets_for
from conftest import REPO

NS2 = STUDY.declarations()["ns2"]

GOLDEN = Path(__file__).parent / "golden"


def test_default_profile_is_the_papers_grid() -> None:
    cfg = defaults()
    block = cfg["hstcp"]
    assert "hstcp" in cfg["studies"]
    assert block["grid"]["buffer_frac"] == [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8, 1.0]
    assert block["grid"]["queue"] == ["DropTail", "RED"] and len(block["seeds"]) >= 2
    assert params.bdp_pkts(block["scenarios"]["s1"], 1000) == 12500
    assert params.bdp_pkts(block["scenarios"]["s2"], 1000) == 6250
    assert block["measure"]["warmup_s"] > 0


def test_flow_rtts_come_from_access_delays() -> None:
    block = defaults()["hstcp"]
    for name in ("s1", "s2"):
        sc = block["scenarios"][name]
        fl = params.flows(block, sc, params.rtts_ms(sc))
        for f in fl:
            rtt = 2 * (
                f["access_delay_ms"]
                + sc["bottleneck_delay_ms"]
                + block["topology"]["sink_delay_ms"]
            )
            assert rtt == pytest.approx(f["rtt_ms"], abs=1e-6) and f["access_delay_ms"] > 0
        rtts = [f["rtt_ms"] for f in fl]
        assert rtts == sorted(rtts)
        assert sum(rtts) / len(rtts) == pytest.approx({"s1": 120, "s2": 90}[name])


@pytest.mark.parametrize("frac", [0.01, 0.015, 0.1, 0.33, 1.0])
def test_buffer_rounding_matches_model(frac: float) -> None:
    for bdp in (12500, 6250, 125):
        assert params.buffer_pkts(frac, bdp) == buffer_packets_for(frac, bdp)


@pytest.mark.parametrize(("queue", "frac", "seed"), [("DropTail", 0.1, 1), ("RED", 1.0, 2)])
def test_rendered_tcl_matches_golden(queue: str, frac: float, seed: int) -> None:
    block = defaults()["hstcp"]
    p = NS2.params(block, point(block, queue, frac, seed))
    text = environment(REPO / "tcl").get_template(NS2.template).render(**p)
    golden = GOLDEN / f"hstcp_s1_{queue.lower()}_frac{frac:g}_seed{seed}.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )


def test_red_thresholds_follow_the_captions() -> None:
    block = defaults()["hstcp"]
    small = NS2.params(block, point(block, "RED", 0.1, 1))  # buffer 1250 < BDP 12500
    assert (small["red_min_th"], small["red_max_th"]) == (500, 1250)
    full = NS2.params(block, point(block, "RED", 1.0, 1))
    assert (full["red_min_th"], full["red_max_th"]) == (5000, 12500)


def test_parser_gets_the_window_and_the_bottleneck() -> None:
    block = defaults()["hstcp"]
    p = point(block, "DropTail", 0.1, 1, scen="s2")
    args = NS2.parse_args(block, p)
    # The run's header, the same text the template writes (issue #17).
    fingerprint = args.pop("fingerprint")
    assert re.fullmatch(r"bufrepro hstcp run=[0-9a-f]{16} seed=1 end=[0-9.]+", fingerprint)
    assert fingerprint == NS2.params(block, p)["fingerprint"]
    assert args == {
        "t0": block["measure"]["warmup_s"],
        "t1": block["measure"]["duration_s"],
        "t_end": block["measure"]["duration_s"],
        "from": 0,
        "to": 1,
        "bps": 2_500_000_000,
        "pkt": 1000,
        # what the stream's M line must say (issue #17)
        "buffer": NS2.params(block, p)["buffer_pkts"],
        "flows": len(NS2.params(block, p)["flows"]),
        "sample_s": block["measure"]["sample_s"],
    }
    assert NS2.params(block, p)["trace_file"] == NS2.stream == "bottleneck.fifo"
