"""The ramya template rendered with NS2.params() matches the golden scenarios."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ramya_tiny import point, tiny_config

from bufrepro.kit.templates import environment
from bufrepro.studies.ramya import STUDY
from conftest import REPO

NS2 = STUDY.declarations()["ns2"]

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(("setup", "buffer", "seed"), [("table5", 1, 1), ("latency", 100, 2)])
def test_rendered_tcl_matches_golden(setup: str, buffer: int, seed: int) -> None:
    cfg = tiny_config()
    params = NS2.params(cfg["ramya"], point(cfg, setup, buffer, seed))
    text = environment(REPO / "tcl").get_template(NS2.template).render(**params)
    golden = GOLDEN / f"ramya_{setup}_buf{buffer}_seed{seed}.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )
