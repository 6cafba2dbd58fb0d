"""Ramya's shapes beside Tables 1 and 5: scale-free, and judged per claim."""

from __future__ import annotations

import pandas as pd
from ramya_tiny import synthetic_summary, tiny_config

from bufrepro.studies.ramya import claims
from bufrepro.studies.ramya.shapes import READS, shapes
from conftest import REPO


def _published() -> pd.DataFrame:
    return pd.read_csv(REPO / "published" / "ramya.csv")


def test_the_paper_against_itself_agrees_whatever_the_scale() -> None:
    block = tiny_config()["ramya"]
    paper = claims.paper_claim_cells(block, _published())
    # The paper's own cells as ours, scaled: a reading of unknown scale with the paper's shapes.
    ours = paper.assign(tput=paper["tput"] * 3, rtt=paper["rtt"] * 0.5)
    table = shapes(ours, paper, dict(block["claims"]))
    assert set(table["scope"]) == {
        "Table 1",
        "Table 1, all readings",
        "Table 5",
        "Table 5, all readings",
    }
    assert table["agrees"].all()
    assert {"trend", "plateau_from", "end_ratio", "peak_at"} == set(table["shape"])


def test_claims_carry_a_shape_verdict_beside_the_absolute_one() -> None:
    block = tiny_config()["ramya"]
    summary = synthetic_summary([10, 50, 100, 500], [1, 2, 3, 6, 12, 25, 50, 100])
    made = claims.judged(block, summary, _published())
    judged, table = made["claims"], made["shapes"]
    assert {"shape_verdict", "shape_evidence"} <= set(judged.columns)
    row = judged.set_index(["claim", "scope"])
    # Synthetic throughput is flat in buffer: its plateau starts at 1 frame, the paper's at 6.
    knee = row.loc[("optimum_3_to_6", "Table 5")]
    assert knee["shape_verdict"] == "fails" and "ours 1, paper 6" in knee["shape_evidence"]
    # RTT grows 0.0045 s a frame from 0.03 s: x13.9 over 1-100 frames, the paper's x12.7.
    assert row.loc[("rtt_grows_sharply", "Table 5"), "shape_verdict"] == "holds"
    # No published table for Fig. 2 or the remedy: no shape to judge.
    assert row.loc[("rtt_grows_sharply", "Fig. 2"), "shape_verdict"] == "untestable"
    assert row.loc[("rwnd_remedy", "remedy"), "shape_verdict"] == "untestable"
    assert set(READS) <= {c.claim_id for c in claims.CLAIMS}
    assert set(table.columns) == {
        "scope",
        "group",
        "along",
        "metric",
        "shape",
        "ours",
        "paper",
        "agrees",
    }
