"""The generic consistency checks on small hand-made published tables."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import consistency as kc


def _table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "table": ["T1"] * 4 + ["T2"] * 2,
            "buffer": [2, 5, 30, 50, 2, 5],
            "delay": [10.0, 20.0, 35.0, 35.0, 50.0, 40.0],
            "thr": [1.0, 2.0, 3.0, 3.0, 9.0, 12.0],
        }
    )


def _run(check: kc.Check) -> pd.DataFrame:
    return kc.run_checks("s", _table(), [check], table_cols=("table",)).set_index("table")


def test_at_most_and_at_least_report_the_worst_row() -> None:
    cap = kc.Check(
        "cap",
        kc.at_most(lambda df: df["thr"], lambda df: pd.Series(10.0, index=df.index)),
        "ok {value:g} <= {expected:g}",
        "over {value:g} > {expected:g}",
        ("table",),
    )
    out = _run(cap)
    assert list(out["passes"]) == [True, False]
    assert out.loc["T2", "value"] == 12.0
    assert out.loc["T2", "implication"] == "over 12 > 10"
    floor = kc.Check(
        "floor",
        kc.at_least(lambda df: df["delay"], lambda df: df["buffer"] * 4.0),
        "ok",
        "below at {value:g}",
        ("table",),
    )
    out = _run(floor)
    # T1: 35 < 4 * 50 at buffer 50 is the worst row; T2: 40 >= 20.
    assert out.loc["T1", "value"] == 35.0 and out.loc["T1", "expected"] == 200.0
    assert list(out["passes"]) == [False, True]


def test_identical_rows_and_monotone() -> None:
    same = kc.Check(
        "same", kc.identical_rows("buffer", ["delay", "thr"]), "none", "{pairs}", ("table",)
    )
    out = _run(same)
    assert out.loc["T1", "implication"] == "30=50" and out.loc["T1", "value"] == 1.0
    assert bool(out.loc["T2", "passes"])
    grows = kc.Check("grows", kc.monotone("buffer", "delay"), "up", "down at {steps}", ("table",))
    out = _run(grows)
    assert bool(out.loc["T1", "passes"])
    assert out.loc["T2", "implication"] == "down at 2->5"


def test_whole_table_scope_and_spread() -> None:
    ratio = kc.Check(
        "ratio", kc.spread(lambda df: df["thr"], "table", 3.0), "ok", "{low:g}-{high:g}"
    )
    out = kc.run_checks("s", _table(), [ratio], table_cols=("table",))
    # Medians 2.5 (T1) and 10.5 (T2): 4.2 times apart, above the limit of 3.
    assert (out.loc[0, "table"], out.loc[0, "block"]) == ("all", "all")
    assert out.loc[0, "value"] == 4.2 and not out.loc[0, "passes"]
    assert out.loc[0, "implication"] == "2.5-10.5"


def test_a_check_that_does_not_apply_writes_no_row() -> None:
    one = pd.DataFrame({"table": ["T"], "buffer": [5], "delay": [1.0]})
    check = kc.Check("m", kc.monotone("buffer", "delay"), "", "", ("table",))
    out = kc.run_checks("s", one, [check], table_cols=("table",))
    assert list(out.columns) == list(kc.COLUMNS) and out.empty
