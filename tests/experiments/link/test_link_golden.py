"""The link scenario's rendered TCL against golden files (BUFREPRO_UPDATE_GOLDEN=1 rewrites)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from link_helpers import config, link

from bufrepro import backends
from bufrepro.kit.experiment import run_points
from bufrepro.pipeline.experiments import plan

GOLDEN = Path(__file__).parent / "golden"
CASES: dict[str, tuple[dict[str, Any], tuple[str, int]]] = {
    # The lab case (every flow the base RTT); the others take the default spread.
    "sack_droptail": (link(flows={"count": 1, "rtt_spread": 0}), ("DropTail", 17)),
    "cubic_red_web_cbr": (
        link(
            rate="1Gbit",
            rtt="100ms",
            flows={"count": 4, "cc": "cubic", "web_rate": 20, "cbr": "1Mbit"},
            queues=["RED"],
            red={"min_th": "5pkt", "max_th": "50%"},
        ),
        ("RED", 400),
    ),
    "highspeed_window": (
        link(flows={"count": 2, "cc": "highspeed", "window": 64}),
        ("DropTail", 8),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rendered_scenario_matches_its_golden_file(case: str) -> None:
    block, pair = CASES[case]
    cfg = config(case, block)
    exp = plan.resolve(cfg, case)
    point = run_points(case, exp.kind, [pair], [1])[0]
    _, text = backends.get("ns2", cfg).scenario(plan.spec(exp, point))
    golden = GOLDEN / f"{case}.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text)
    assert text == golden.read_text()
