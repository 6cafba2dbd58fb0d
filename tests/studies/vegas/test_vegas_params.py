"""The vegas run inputs: golden scenarios, the cells' geometry, the parser's variables."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from vegas_tiny import point, tiny_config

from bufrepro.kit.templates import environment
from bufrepro.studies.vegas import STUDY
from bufrepro.studies.vegas.params import RANGE_M, geometry
from conftest import REPO

NS2 = STUDY.declarations()["ns2"]

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def tiny_cfg() -> dict[str, Any]:
    return tiny_config()


def test_the_study_names_its_files_and_the_patched_ns() -> None:
    assert dict(NS2.options) == {"build": "patched"}
    assert (REPO / "tcl" / NS2.template).is_file()
    assert (REPO / "awk" / NS2.parser).is_file()
    assert NS2.kept_files == ("series.tsv",)
    assert STUDY.published_files() == ("vegas.csv",)
    assert STUDY.shown_tables() == ("notes", "bdp", "consistency", "shapes")
    for figure in STUDY.figures:
        assert (REPO / "report" / "captions" / "vegas" / f"{figure}.rst").is_file()


@pytest.mark.parametrize(
    ("variant", "packet", "rtt", "seed", "level"),
    [
        ("standard", 512, 108, 1, "full"),
        ("spacing", 512, 60, 2, "full"),
        ("standard", 512, 108, 1, "tally"),
        ("spacing", 512, 60, 2, "tally"),
    ],
)
def test_rendered_tcl_matches_golden(
    tiny_cfg: dict[str, Any], variant: str, packet: int, rtt: int, seed: int, level: str
) -> None:
    """The text-trace scenarios (trace_level full: the reference) and the counted ones."""
    tiny_cfg["vegas"]["trace_level"] = level
    p = point(tiny_cfg, seed, variant=variant, packet_bytes=packet, rtt_ms=rtt)
    params = NS2.params(tiny_cfg["vegas"], p)
    text = environment(REPO / "tcl").get_template(NS2.template).render(**params)
    suffix = "_tally" if level == "tally" else ""
    name = f"vegas_{p.get('setup')}_{variant}_pkt{packet}_rtt{rtt}_seed{seed}{suffix}.tcl"
    golden = GOLDEN / name
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )


def test_geometry_follows_the_stated_overlap(tiny_cfg: dict[str, Any]) -> None:
    geo = geometry(tiny_cfg["vegas"])
    # Cells of 250 m: AR1 and AR2 overlap by 80 m, the home cell is 100 m short of AR1's.
    assert (geo["ar1_x_m"] + RANGE_M) - (geo["ar2_x_m"] - RANGE_M) == 80
    assert (geo["ar1_x_m"] - RANGE_M) - (geo["ha_x_m"] + RANGE_M) == 100
    assert geo["ar1_x_m"] - geo["ha_x_m"] > 550  # beyond ns-2's carrier-sense range


def test_parser_variables(tiny_cfg: dict[str, Any]) -> None:
    a = NS2.parse_args(tiny_cfg["vegas"], point(tiny_cfg, 1, setup="rtt", rtt_ms=60))
    # The window is the whole 35 s run; the flow goes CN (0) -> MN (6); N1 -> MAP is 2 Mb/s.
    assert (a["t0"], a["t1"], a["t_end"], a["src"], a["dst"]) == (0, 35, 35, 0, 6)
    assert (a["traced"], a["link_from"], a["link_to"], a["link_bps"]) == ("0-1,1-2", 1, 2, 2e6)
    assert a["series"] == "series.tsv" and a["series"] in NS2.kept_files
    # The run's header, the same text the template writes (issue #17).
    p = NS2.params(tiny_cfg["vegas"], point(tiny_cfg, 1, setup="rtt", rtt_ms=60))
    assert a["fingerprint"] == p["fingerprint"]
    assert (
        a["fingerprint"].startswith("bufrepro vegas run=") and " seed=1 end=35" in a["fingerprint"]
    )
