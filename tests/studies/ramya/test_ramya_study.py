"""STUDY.compare() on a synthetic summary: the diff, the claims' verdicts and the notes at once."""

from __future__ import annotations

import pandas as pd
from ramya_tiny import synthetic_summary, tiny_config

from bufrepro.studies.ramya import STUDY
from bufrepro.studies.ramya.claims import CLAIMS
from conftest import REPO

NS2 = STUDY.declarations()["ns2"]


def test_files_and_tables_declared() -> None:
    assert STUDY.name == "ramya" and NS2.template == "ramya/ramya.tcl.j2"
    assert (REPO / "tcl" / NS2.template).is_file()
    assert NS2.side_files == ("rtt.tr", "ping.tr", "queue.tr")
    assert NS2.kept_files == ("queue.tr",)
    assert STUDY.derived == ("queue_series",) and STUDY.shown_tables() == (
        "notes",
        "consistency",
        "shapes",
    )
    assert STUDY.float_format("queue_series") == "%.6f" and STUDY.float_format("notes") is None
    assert STUDY.published_files() == ("ramya.csv",)
    for figure in STUDY.figures:
        assert (REPO / "report" / "captions" / "ramya" / f"{figure}.rst").is_file()


def test_diff_claims_and_notes_on_a_synthetic_summary() -> None:
    block = tiny_config()["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    summary = synthetic_summary([10, 50, 100, 500], [1, 2, 3, 6, 12, 25, 50, 100])
    out = STUDY.compare(block, {"summary": summary, "published": published})
    assert set(out) == {"diff", "claims", "notes", "consistency", "shapes"}
    diff, verdicts = out["diff"], out["claims"]
    assert len(diff) == 44 and diff["has_counterpart"].all()
    goodput = diff[(diff["published_column"] == "goodput") & (diff["buffer"] == 10)].iloc[0]
    assert goodput["ours_mean"] == 440 * 125  # kb/s -> B/s
    assert goodput["published"] == 54722
    assert set(verdicts["claim"]) == {c.claim_id for c in CLAIMS}
    remedy = verdicts[verdicts["claim"] == "rwnd_remedy"].iloc[0]
    assert remedy["verdict"] == "untestable" and remedy["paper_table_verdict"] == "untestable"
    tol = verdicts[verdicts["claim"] == "tolerates_2pct_drops"].iloc[0]
    assert tol["paper_table_verdict"] == "holds"  # 790 drops of ~31900 packets: 2.5%
    notes = out["notes"]
    fits = notes[notes["section"] == "which reading fits which table"]
    assert len(fits) == 2 and fits["note"].str.contains("diffed").all()
    assert (notes["section"] == "OMNeT++/INET vs ns-2").sum() >= 5


def test_claims_scopes_diffed_reading_and_all_readings() -> None:
    block = tiny_config()["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    near = synthetic_summary([], [1, 6, 100])
    far = near.copy()
    far["bottleneck_mbps"] = 0.5
    out = STUDY.compare(block, {"summary": pd.concat([near, far]), "published": published})
    # "Table 5" checks the diffed reading only, "Table 5, all readings" both.
    knee = out["claims"][out["claims"]["claim"] == "optimum_3_to_6"].set_index("scope")
    assert knee["comparisons"]["Table 5"] == 1 and knee["comparisons"]["Table 5, all readings"] == 2
