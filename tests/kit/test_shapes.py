"""The generic shapes (trend, steps, plateau onset, ratios, peaks) and claims' shape verdicts."""

from __future__ import annotations

import pandas as pd
import pytest

from bufrepro.kit import shapes

TH = {"flat_frac": 0.05, "shape_frac": 0.25}


def test_trend_steps_plateau_and_ratio() -> None:
    assert shapes.trend([100.0, 200.0], 0.05) == "up"
    assert shapes.trend([100.0, 103.0], 0.05) == "flat"
    assert shapes.trend([100.0, 50.0], 0.05) == "down"
    assert shapes.trend([0.0, 0.0], 0.05) == "flat"
    assert shapes.steps([1.0, 2.0, 2.01, 1.0], 0.05) == "up,flat,down"
    assert shapes.plateau_from([5, 10, 50], [100.0, 200.0, 205.0], 0.05) == 10
    assert shapes.ratio_agrees(2.0, 2.4, 0.25) and not shapes.ratio_agrees(2.0, 2.6, 0.25)
    assert not shapes.ratio_agrees(0.0, 1.0, 0.25)  # no ratio of a zero


def _series(ours: list[float], paper: list[float]) -> shapes.Series:
    return shapes.Series("S", "k=1", "x", "m", (1.0, 2.0, 4.0), tuple(ours), tuple(paper))


def test_shape_rows_survive_a_scale_and_catch_a_changed_shape() -> None:
    kinds = shapes.ALONG_SHAPES
    same = shapes.shape_rows(_series([30.0, 60.0, 63.0], [10.0, 20.0, 21.0]), kinds, TH)
    assert {r["shape"] for r in same} == set(kinds)
    assert all(r["agrees"] for r in same)  # x3 everywhere: every shape agrees
    other = shapes.shape_rows(_series([10.0, 11.0, 40.0], [10.0, 20.0, 21.0]), kinds, TH)
    by = {(r["shape"], r["group"]): r for r in other}
    assert (
        by[("plateau_from", "k=1")]["ours"] == "4" and by[("plateau_from", "k=1")]["paper"] == "2"
    )
    assert not by[("plateau_from", "k=1")]["agrees"]
    assert by[("steps", "k=1")]["ours"] == "up,up" and by[("steps", "k=1")]["paper"] == "up,flat"
    assert by[("trend", "k=1")]["agrees"]  # both rise overall
    assert not by[("end_ratio", "k=1, x 1->4")]["agrees"]  # x4 against x2.1
    with pytest.raises(ValueError, match="unknown shape 'kink'"):
        shapes.shape_rows(_series([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]), ("kink",), TH)


def test_series_of_groups_and_skips_missing_points() -> None:
    both = pd.DataFrame(
        {
            "k": [1, 1, 1, 2, 2],
            "x": [4.0, 1.0, 2.0, 1.0, 2.0],
            "m_o": [3.0, 1.0, 2.0, 5.0, None],
            "m_p": [3.0, 1.0, 2.0, 5.0, 6.0],
        }
    )
    got = shapes.series_of(both, "S", ["k"], "x", "m", "m_o", "m_p")
    assert [(s.group, s.xs, s.ours) for s in got] == [
        ("k=1", (1.0, 2.0, 4.0), (1.0, 2.0, 3.0)),
        ("k=2", (1.0,), (5.0,)),
    ]
    assert shapes.shape_rows(got[1], ("trend",), TH) == []  # one point has no shape


def test_judge_reads_only_the_claims_shapes_metrics_and_axes() -> None:
    rows = shapes.shape_rows(_series([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]), ("trend",), TH)
    rows += shapes.shape_rows(_series([3.0, 2.0, 1.0], [1.0, 2.0, 3.0]), ("peak_at",), TH)
    table = shapes.table(rows)
    claims = pd.DataFrame({"claim": ["rises", "peaks", "other", "rises"], "scope": list("SSST")})
    reads = {
        "rises": shapes.Reads(("trend",), ("m",), ("x",)),
        "peaks": shapes.Reads(("peak_at",), ("m",)),
    }
    judged = shapes.judge(claims, table, reads, 0.9)
    assert list(judged["shape_verdict"]) == ["holds", "fails", "untestable", "untestable"]
    assert "ours 1, paper 4" in judged["shape_evidence"].iloc[1]
    wrong_axis = shapes.judge(claims, table, {"rises": shapes.Reads(("trend",), (), ("y",))}, 0.9)
    assert wrong_axis["shape_verdict"].iloc[0] == "untestable"
