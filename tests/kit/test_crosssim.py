"""The cross-simulator table: agreement by overlapping intervals or means within 10 %."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import crosssim


def _summary(rows: list[tuple[int, str, float, float, float]], n: int = 3) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=["buffer", "metric", "mean", "ci_low", "ci_high"])
    return df.assign(n=n)


def test_agreement_rules() -> None:
    assert crosssim.agreement((10, 9, 11), (12, 10.8, 13)) == "overlap"
    assert crosssim.agreement((10, 9.9, 10.1), (10.9, 10.8, 11)) == "within 10%"
    assert crosssim.agreement((10, 9.9, 10.1), (12, 11.9, 12.1)) == "differ"
    assert crosssim.agreement((0, 0, 0), (0, 0, 0)) == "within 10%"
    # Two seeds: a t interval of +-12.7 sd overlaps anything; it decides nothing.
    assert crosssim.agreement((10, -50, 70), (20, -40, 80), n=2) == "too few seeds"
    assert crosssim.agreement((10, -50, 70), (10.5, -40, 80), n=2) == "within 10%"


def test_table_and_counts() -> None:
    a = _summary([(5, "x", 10, 9, 11), (5, "y", 1, 0.9, 1.1), (9, "x", 3, 3, 3)])
    b = _summary([(5, "x", 10.5, 10, 11), (5, "y", 2, 1.9, 2.1)])
    cross = crosssim.table(a, b, ["buffer"], ["x", "y"], ("ns2", "ns3"))
    assert list(cross.columns[:4]) == ["buffer", "metric", "ns2_n", "ns2_mean"]
    assert len(cross) == 3  # cell 9 only on one side: listed, not compared
    assert list(cross["how"]) == ["within 10%", "differ", "ns2 only"]
    assert list(cross["agree"]) == [True, False, False]
    assert cross["ratio"].tolist()[:2] == [1.05, 2.0]
    counts = crosssim.counts(cross, "s", ["x", "y"])
    assert counts.to_dict("records") == [
        {"study": "s", "metric": "x", "cells": 1, "agree": 1, "disagree": 0, "undecided": 0},
        {"study": "s", "metric": "y", "cells": 1, "agree": 0, "disagree": 1, "undecided": 0},
    ]


def test_every_further_simulator_is_compared_against_the_reference() -> None:
    a = _summary([(5, "x", 10, 9, 11), (9, "x", 3, 3, 3)])
    b = _summary([(5, "x", 10.5, 10, 11), (9, "x", 3, 3, 3)])
    c = _summary([(5, "x", 20, 19, 21)])
    cross = crosssim.against_each(("ns2", a), [("ns3", b), ("omnet", c)], ["buffer"], ["x"])
    assert list(cross.columns[:3]) == ["buffer", "metric", "simulator"]
    assert {"ns2_mean", "ns3_mean", "omnet_mean", "ratio", "how", "agree"} <= set(cross.columns)
    assert list(cross["simulator"]) == ["ns3", "ns3", "omnet", "omnet"]
    assert list(cross["how"]) == ["within 10%", "within 10%", "differ", "ns2 only"]
    assert cross["ratio"].tolist()[:3] == [1.05, 1.0, 2.0]
    # the reference's columns on every row, each further simulator's on its own rows only
    assert cross["ns2_mean"].notna().all()
    assert cross["omnet_mean"].isna().tolist() == [True, True, False, True]
    counts = crosssim.counts_each(cross, "s", ["x"])
    assert counts.to_dict("records") == [
        {"study": "s", "simulator": "ns3", "metric": "x", "cells": 2, "agree": 2}
        | {"disagree": 0, "undecided": 0},
        {"study": "s", "simulator": "omnet", "metric": "x", "cells": 1, "agree": 0}
        | {"disagree": 1, "undecided": 0},
    ]
