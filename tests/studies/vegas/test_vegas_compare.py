"""The vegas comparison on cells equal to the paper's: diff, claims, notes and Tables V-VI."""

from __future__ import annotations

from vegas_tables import paper_cells, published, runs_of, summary_of

from bufrepro.pipeline import configuration
from bufrepro.studies.vegas import STUDY


def test_cells_equal_to_the_paper_agree_everywhere() -> None:
    block = configuration.load()["vegas"]
    cells = paper_cells(block)
    tables = {"runs": runs_of(cells), "summary": summary_of(cells), "published": published()}
    out = STUDY.compare(block, tables)
    assert set(out) == {"diff", "claims", *STUDY.tables}
    diff = out["diff"]
    simulated = diff[diff["table"].isin(["Table II", "Table III", "Table IV"])]
    assert len(simulated) == 20 + 20 + 48 and simulated["has_counterpart"].all()
    assert (simulated["abs_diff"].abs() < 1e-9).all() and simulated["in_ci"].all()
    assert len(diff) == 88 + 49  # and every printed value of Tables V-VI, computed
    claims = out["claims"]
    # our cells' claims are tests (claims.spacing_frac, claims.step_frac; here sd 0, so exact
    # differences against the tolerance) and so is the paper's table, its values as points: the
    # same numbers under one rule give the same verdict on every claim
    assert (claims["verdict"] == claims["paper_table_verdict"]).all()
    assert (claims["rule"] == claims["paper_table_rule"]).all()
    assert claims.loc[claims["claim"] == "delay_rises_with_rtt", "verdict"].eq("partly").all()
    assert set(claims["scope"]) == {"diffed readings", "all readings"}
    notes = out["notes"]
    assert {"which reading fits which table", "how the seeds spread"} <= set(notes["section"])
    assert list(notes.columns) == ["section", "topic", "paper", "ours", "note"]


def test_bdp_table_sets_our_table_iv_beside_tables_v_vi() -> None:
    block = configuration.load()["vegas"]
    cells = paper_cells(block)
    tables = {"runs": runs_of(cells), "summary": summary_of(cells), "published": published()}
    bdp = STUDY.compare(block, tables)["bdp"]
    assert bdp["ours_throughput_kbps"].notna().all()  # every Table IV RTT is a cell
    # The paper's own throughputs put 60 and 80 ms in the upper group as well.
    ours_upper = set(bdp.loc[bdp["ours_upper"], "rtt_ms"])
    assert ours_upper == {60, 80, 100, 110, 120, 130, 140, 150}
    assert STUDY.float_format("bdp") == "%.6f"
    text = bdp.to_csv(index=False, float_format=STUDY.float_format("bdp"))
    assert text.splitlines()[1].startswith("40,19.531250,50,2.560000,False,0.835005,0.835000,")


def test_diff_is_written_with_six_decimals() -> None:
    assert STUDY.float_format("diff") == "%.6f"
    assert isinstance(STUDY.diff_view, tuple) and "matches_printed" in STUDY.diff_view
    assert STUDY.float_format("notes") is None
