"""The dumbbell template rendered with NS2.params() matches the golden scenarios."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bufrepro.kit.grid import RunPoint
from bufrepro.kit.templates import environment
from bufrepro.studies.dumbbell import STUDY
from conftest import REPO

NS2 = STUDY.declarations()["ns2"]

GOLDEN = Path(__file__).parent / "golden"


def _point(block: dict[str, Any], queue: str, buffer: int, seed: int) -> RunPoint:
    return next(
        p
        for p in STUDY.runs(block)
        if p.get("queue") == queue and p.get("buffer") == buffer and p.seed == seed
    )


@pytest.mark.parametrize(("queue", "buffer", "seed"), [("DropTail", 5, 1), ("RED", 50, 2)])
def test_rendered_tcl_matches_golden(
    tiny_cfg: dict[str, Any], queue: str, buffer: int, seed: int
) -> None:
    block = tiny_cfg["dumbbell"]
    params = NS2.params(block, _point(block, queue, buffer, seed))
    text = environment(REPO / "tcl").get_template(NS2.template).render(**params)
    golden = GOLDEN / f"dumbbell_{queue.lower()}_buf{buffer}_seed{seed}.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )


def test_http_scenario_matches_golden(tiny_cfg: dict[str, Any]) -> None:
    """The HTTP reading: PackMimeHTTP over FullTcp/Sack in place of the FTP flows, HTTP/1.1."""
    block = {
        **tiny_cfg["dumbbell"],
        "tcp": {**tiny_cfg["dumbbell"]["tcp"], "application": "HTTP"},
        "http": {"rate_per_mbps": 10, "version": "1.1"},
    }
    params = NS2.params(block, _point(block, "RED", 5, 1))
    text = environment(REPO / "tcl").get_template(NS2.template).render(**params)
    golden = GOLDEN / "dumbbell_http_red_buf5_seed1.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )
    assert "Application/FTP" not in text and "$pm set-rate 5.0" in text
