"""The cross-simulator table: agreement as equivalence (kit.verdicts), never from overlap."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import crosssim

COLUMNS = ["buffer", "metric", "mean", "sd", "ci_low", "ci_high"]


def _summary(rows: list[tuple[int, str, float, float]], n: int = 6) -> pd.DataFrame:
    df = pd.DataFrame([(*r, r[2] - r[3], r[2] + r[3]) for r in rows], columns=COLUMNS)
    return df.assign(n=n)


def test_agreement_rules() -> None:
    assert crosssim.agreement((6, 10, 0.1), (6, 10.3, 0.1))[0] == "agree"
    assert crosssim.agreement((6, 10, 0.1), (6, 12, 0.1))[0] == "differ"
    assert crosssim.agreement((3, 0, 0), (3, 0, 0))[0] == "agree"
    # Overlapping wide intervals: undecided, not agree.
    assert crosssim.agreement((3, 10, 20), (3, 12, 20))[0] == "undecided"
    assert crosssim.agreement((1, 10, float("nan")), (3, 12, 1))[0] == (
        "not judged: too little data"
    )
    # Drop counts near zero: compared within a few packets.
    assert crosssim.agreement((6, 0.5, 0.5), (6, 2.0, 0.5), "tcp_drops_queue")[0] == "agree"


def test_table_and_counts() -> None:
    a = _summary([(5, "x", 10, 0.1), (5, "y", 1, 0.01), (9, "x", 3, 0)])
    b = _summary([(5, "x", 10.2, 0.1), (5, "y", 2, 0.01), (7, "x", 4, 0.1)])
    cross = crosssim.table(a, b, ["buffer"], ["x", "y"], ("ns2", "ns3"))
    assert list(cross.columns[:4]) == ["buffer", "metric", "ns2_n", "ns2_mean"]
    # compared cells first; cells only one side ran after them, nothing compared
    assert list(cross["how"]) == ["agree", "differ", "ns3 only", "ns2 only"]
    assert list(cross["agree"]) == [True, False, False, False]
    assert cross["ratio"].tolist()[:2] == [1.02, 2.0]
    assert cross["ratio"].isna().tolist()[2:] == [True, True]
    counts = crosssim.counts(cross, "s", ["x", "y"])
    assert counts.to_dict("records") == [
        {"study": "s", "metric": "x", "cells": 1, "agree": 1, "differ": 0}
        | {"undecided": 0, "not_judged": 0},
        {"study": "s", "metric": "y", "cells": 1, "agree": 0, "differ": 1}
        | {"undecided": 0, "not_judged": 0},
    ]


def test_a_zero_mean_gives_no_inf_ratio() -> None:
    a = _summary([(5, "x", 0, 0)])
    b = _summary([(5, "x", 9.7, 16.8)], n=3)
    cross = crosssim.table(a, b, ["buffer"], ["x"], ("ns2", "ns3"))
    assert cross["ratio"].isna().all()
    assert list(cross["how"]) == ["undecided"]


def test_every_further_simulator_is_compared_against_the_reference() -> None:
    a = _summary([(5, "x", 10, 0.1), (9, "x", 3, 0)])
    b = _summary([(5, "x", 10.5, 0.1), (9, "x", 3, 0)])
    c = _summary([(5, "x", 20, 0.1)])
    cross = crosssim.against_each(("ns2", a), [("ns3", b), ("omnet", c)], ["buffer"], ["x"])
    assert list(cross.columns[:3]) == ["buffer", "metric", "simulator"]
    assert {"ns2_mean", "ns3_mean", "omnet_mean", "ratio", "how", "agree"} <= set(cross.columns)
    assert list(cross["simulator"]) == ["ns3", "ns3", "omnet", "omnet"]
    assert list(cross["how"]) == ["agree", "agree", "differ", "ns2 only"]
    assert cross["ns2_mean"].notna().all()
    assert cross["omnet_mean"].isna().tolist() == [True, True, False, True]
    counts = crosssim.counts_each(cross, "s", ["x"])
    assert counts[["simulator", "cells", "agree", "differ"]].to_dict("records") == [
        {"simulator": "ns3", "cells": 2, "agree": 2, "differ": 0},
        {"simulator": "omnet", "cells": 1, "agree": 0, "differ": 1},
    ]
