"""The summary's counts and each diff value's status: not run, too few seeds, inside, outside."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from bufrepro.pipeline import summary


def _diff(**extra: list[object]) -> pd.DataFrame:
    rows = {
        "metric": [
            "link_utilisation",
            "link_utilisation",
            "tcp_delay_ms_mean",
            "tcp_delay_ms_mean",
        ],
        "published": [0.9, 0.9, 100.0, 100.0],
        "ours_mean": [0.85, math.nan, 120.0, 99.0],
        "ci_low": [-0.2, math.nan, 110.0, -5.0],
        "ci_high": [1.9, math.nan, 130.0, 203.0],
        "ours_n": [2, math.nan, 8, 6],
        "rel_diff": [-0.0556, math.nan, 0.2, -0.01],
        "in_ci": [True, False, False, True],
        "has_counterpart": [True, False, True, True],
    }
    return pd.DataFrame({**rows, **extra})


def test_not_run_few_seeds_inside_and_outside_are_told_apart() -> None:
    out = summary.with_status(_diff())
    assert out["status"].tolist() == ["few", "notrun", "outside", "inside"]
    # A CI below zero delay or beyond utilisation 1 is flagged; a CI within bounds is not.
    assert out["ci_clipped"].tolist() == [True, False, False, True]


def test_computed_values_are_judged_by_the_printed_value() -> None:
    out = summary.with_status(_diff(matches_printed=[None, None, True, False]))
    assert out["status"].tolist() == ["few", "notrun", "matches", "differs"]


def test_bounds_by_metric_name() -> None:
    assert summary.bounds("link_utilisation") == (0.0, 1.0)
    assert summary.bounds("tcp_efficiency_pct") == (0.0, 100.0)
    assert summary.bounds("tcp_delay_ms_mean") == (0.0, math.inf)


@pytest.mark.parametrize(
    ("value", "text"), [(-0.001, "0%"), (0.123, "12%"), (math.nan, ""), (math.inf, "")]
)
def test_percentages_never_read_minus_zero(value: float, text: str) -> None:
    assert summary.pct(value) == text


def _tables(tmp_path: Path, diff: pd.DataFrame) -> Path:
    tables = tmp_path / "s" / "tables"
    tables.mkdir(parents=True)
    diff.to_csv(tables / "diff.csv", index=False)
    (tables / "coverage.json").write_text(
        json.dumps({"published_rows": 4, "rows_with_counterpart": 3})
    )
    pd.DataFrame(
        {"verdict": ["holds", "fails", "untestable"], "paper_table_verdict": ["holds"] * 3}
    ).to_csv(tables / "claims.csv", index=False)
    return tables


def test_study_summary_counts(tmp_path: Path) -> None:
    row = summary.study_summary("s", _tables(tmp_path, _diff()))
    assert (row["values_ran"], row["values_judged"], row["values_in_ci"]) == (3, 2, 1)
    assert (row["values_few_seeds"], row["values_few_in_ci"]) == (1, 1)
    assert row["median_abs_rel_diff"] == pytest.approx(
        {"link_utilisation": 0.0556, "tcp_delay_ms_mean": 0.105}
    )
    assert row["claims_ours"] == {
        "holds": 1,
        "partly": 0,
        "fails": 1,
        "not supported": 0,
        "no meaningful difference": 0,
        "undecided": 0,
        "untestable": 1,
        "not judged": 0,
    }
    assert row["verdict"] == summary.NO_CALIBRATION and row["values_with_pi"] is None
    text = summary.display_rows([row])[0]
    assert text["inside 95% CI"].startswith("1 of 2 judged; 1 from n < 5 seeds not judged")
    assert text["claims (ours)"] == (
        "1 holds / 0 partly / 1 fails / 0 not supported / 0 no meaningful difference / 0 undecided"
        " (1 untestable)"
    )


def test_prediction_interval_and_verdict_are_used_when_present(tmp_path: Path) -> None:
    diff = _diff(
        pi_low=[0.1, math.nan, 90.0, 50.0],
        pi_high=[1.0, math.nan, 125.0, 150.0],
        in_pi=[True, False, True, False],
    )
    tables = _tables(tmp_path, diff)
    (tables / "verdict.json").write_text(json.dumps({"verdict": "reproduces within 10%"}))
    row = summary.study_summary("s", tables)
    assert (row["values_in_pi"], row["values_with_pi"]) == (2, 3)
    assert row["verdict"] == "reproduces within 10%"
    assert summary.display_rows([row])[0]["inside 95% PI"] == "2 of 3"


def test_a_study_summary_speaks_in_labels_with_the_keys_beside(tmp_path: Path) -> None:
    # A registered study's labels (studies/vegas/labels.yaml); all values from too few seeds.
    tables = tmp_path / "vegas" / "tables"
    tables.parent.mkdir()
    _tables(tmp_path, _diff(ours_n=[2, math.nan, 3, 1])).rename(tables)
    (tables / "verdict.json").write_text(
        json.dumps(
            {
                "verdict": "not judged: n < 5 seeds; ...",
                "verdict_keys": "reproduces under reading lhs001 (validation median error 5 %)",
                "reading": {"id": "lhs001", "values": {"tcp.window_pkts": 1000}},
            }
        )
    )
    rows = summary.summaries(tmp_path, ["vegas"])
    text, keys = summary.display_rows(rows)[0], summary.display_keys(rows)[0]
    assert text["inside 95% CI"] == (
        "not judged: all 3 values from n < 5 seeds (2 inside their wide CI); 2 CIs cross a "
        "physical bound"
    )
    assert text["median |rel. diff|"] == "link_utilisation 6%, delay 11%"
    assert keys["median |rel. diff|"] == "link_utilisation 6%, tcp_delay_ms_mean 11%"
    assert text["verdict"] == "not judged: n < 5 seeds; ..."
    # The keys name the reading by what sets it apart (verdict_keys); every value of it is in
    # the report's readings block, not in the summary.
    assert keys["verdict"] == "reproduces under reading lhs001 (validation median error 5 %)"


def test_signed_percentages() -> None:
    assert summary.pct(4.75, signed=True) == "+475%"
    assert summary.pct(-0.004, signed=True) == "0%"
    assert summary.pct(-0.25, signed=True) == "-25%"


def test_show_summary_is_a_few_lines_per_study(tmp_path: Path) -> None:
    from bufrepro.pipeline import show

    _tables(tmp_path, _diff())
    lines = show.show(tmp_path, ["s"], summary_only=True).splitlines()
    assert lines[0].startswith("== did it reproduce?") and len(lines) == 1 + 4
    assert lines[1].startswith("s: 3 of 4 published rows covered, 3 of 4 values run")
    assert lines[-1] == "    verdict: calibration not run"


def test_show_adds_each_claims_fitted_verdict(tmp_path: Path) -> None:
    from bufrepro.pipeline import show

    path = tmp_path / "claims_calibrated.csv"
    assert show._fitted_verdicts(path) == {}  # no calibrated table: nothing added
    pd.DataFrame(
        {
            "claim": ["a", "a", "b"],
            "scope": ["DropTail", "RED", "all"],
            "verdict": ["holds", "fails", "partly"],
            "reading": ["lhs003", "lhs003", "a_priori"],
            "fitted": [True, True, False],
            "validation_distance": [0.1234, 0.1234, float("nan")],
        }
    ).to_csv(path, index=False)
    lines = show._fitted_verdicts(path)
    assert set(lines) == {("a", "DropTail"), ("a", "RED")}  # not fitted: not repeated
    assert lines[("a", "RED")] == (
        "on the calibrated reading lhs003 (fitted; validation distance 0.123): fails"
    )


def test_a_profiles_summary_names_the_command_that_judges_it() -> None:
    rows = [{"study": "s", "inside 95% CI": "not judged: all 3 values from n < 5 seeds"}]
    hint = summary.judged_by(rows, "quick")
    assert hint.startswith("not judged here (fewer than 5 seeds, or a readings space of fewer")
    assert hint.endswith("`bash scripts/reproduce.sh`, judges them")
    assert summary.judged_by(rows, "") == ""  # the whole reproduction names no other command
    judged = [{"study": "s", "inside 95% CI": "3 of 5"}]
    assert summary.judged_by(judged, "quick") == ""


def test_the_papers_column_counts_only_claims_judged_by_our_rule() -> None:
    claims = pd.DataFrame(
        {
            "verdict": ["holds", "no meaningful difference", "fails"],
            "paper_table_verdict": ["holds", "no meaningful difference", "holds"],
            "rule": ["claim test", "claim test", "claim test"],
            "paper_table_rule": ["claim test", "claim test", "sign of the means"],
            "paper_side": ["model"] * 3,
        }
    )
    row = {"claims_ours": summary.counts(claims["verdict"]), **summary.paper_side(claims)}
    assert row["claims_paper"]["holds"] == 1 and row["claims_paper_apart"] == 1
    text = summary.paper_text(row)
    assert text.startswith("model: 1 holds / 0 partly / 0 fails")
    assert "judged by our rule (claim test)" in text
    assert "1 judged by another rule (sign of the means) left out" in text


def test_cross_simulator_counts_say_how_many_undecided_need_over_20_seeds(tmp_path: Path) -> None:
    row = {"study": "s", "simulator": "ns3", "metric": "m", "cells": 10, "agree": 5}
    row |= {"differ": 1, "undecided": 4, "not_judged": 0, "undecided_over_20": 3}
    pd.DataFrame([row]).to_csv(tmp_path / "cross_sim_counts.csv", index=False)
    text = "ns3: 5 agree / 1 differ / 4 undecided of 10 (3 undecided would need over 20 seeds)"
    assert summary.cross_sim_text(tmp_path) == text
    pd.DataFrame([row | {"undecided_over_20": 0}]).to_csv(tmp_path / "cross_sim_counts.csv")
    assert summary.cross_sim_text(tmp_path) == "ns3: 5 agree / 1 differ / 4 undecided of 10"
