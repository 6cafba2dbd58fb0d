"""The cross-simulator table: agreement as equivalence (kit.verdicts), never from overlap."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy.stats import binomtest

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
        | {"undecided": 0, "not_judged": 0, "undecided_over_20": 0},
        {"study": "s", "metric": "y", "cells": 1, "agree": 0, "differ": 1}
        | {"undecided": 0, "not_judged": 0, "undecided_over_20": 0},
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


def test_a_count_is_compared_by_the_exact_test_of_pooled_events() -> None:
    # 237 CBR losses a run at 5 seeds a side with a run-to-run sd of 10 %: Welch's interval
    # spans +-10 %, the pooled events (1185 against 1200) decide agreement.
    a, b = (5, 237.0, 23.7), (5, 240.0, 24.0)
    count = crosssim.Margin("count", 0.10, 3.0)
    assert crosssim.agreement(a, b, "cbr_lost")[0] == "undecided"
    how, iv, band = crosssim.agreement(a, b, "cbr_lost", count)
    assert how == "agree" and band == pytest.approx(24.0)
    # The interval is the exact (Clopper-Pearson) one of b's share of the 2385 pooled events.
    ci = binomtest(1200, 2385, 0.5).proportion_ci(0.95, method="exact")
    assert iv.low == pytest.approx(ci.low * 2385 / 5 - (1 - ci.low) * 2385 / 5)
    assert iv.high == pytest.approx(ci.high * 2385 / 5 - (1 - ci.high) * 2385 / 5)
    # Twice the events on one side: differ.
    assert crosssim.agreement(a, (5, 474.0, 10.0), "cbr_lost", count)[0] == "differ"


def test_an_absolute_margin_judges_utilisation_in_its_own_units() -> None:
    util = crosssim.Margin("absolute", 0.01)
    a, b = (6, 0.95, 0.004), (6, 0.93, 0.004)
    # +-10 % of the larger mean (0.095) calls 0.02 apart "agree"; +-0.01 does not.
    assert crosssim.agreement(a, b)[0] == "agree"
    assert crosssim.agreement(a, b, "link_utilisation", util)[0] == "differ"


def test_undecided_cells_say_how_many_seeds_would_decide_them() -> None:
    a = _summary([(5, "x", 10, 2.0)], n=4)
    b = _summary([(5, "x", 10.2, 2.0)], n=4)
    cross = crosssim.table(a, b, ["buffer"], ["x"], ("ns2", "ns3"))
    row = cross.iloc[0]
    assert row["how"] == "undecided"
    half = (row["diff_high"] - row["diff_low"]) / 2
    assert row["half_width"] == pytest.approx(half / 10.2)
    room = row["band"] - abs(row["diff"])
    assert row["seeds_needed"] == math.ceil(4 * (half / room) ** 2) > 20
    counts = crosssim.counts(cross, "s", ["x"])
    assert counts["undecided_over_20"].tolist() == [1]


def test_a_rate_is_compared_by_the_exact_test_of_its_pooled_events() -> None:
    # A loss rate of 0.0237 (237 drops a run of 10000 packets) against 0.0240, 5 seeds a side,
    # a 10 % run-to-run spread: Welch cannot decide +-10 %, the pooled drops can.
    cols = ["buffer", "metric", "mean", "sd", "ci_low", "ci_high", "n"]
    a = pd.DataFrame(
        [(5, "loss", 0.0237, 0.00237, 0, 1, 5), (5, "drops", 237.0, 23.7, 0, 1000, 5)], columns=cols
    )
    b = pd.DataFrame(
        [(5, "loss", 0.0240, 0.0024, 0, 1, 5), (5, "drops", 240.0, 24.0, 0, 1000, 5)], columns=cols
    )
    rate = crosssim.Margin("rate", 0.10, events=("drops",))
    assert crosssim.table(a, b, ["buffer"], ["loss"], ("ns2", "ns3"))["how"].tolist() == [
        "undecided"
    ]
    cross = crosssim.table(a, b, ["buffer"], ["loss"], ("ns2", "ns3"), {"loss": rate})
    assert cross["how"].tolist() == ["agree"]
    # The exposures are drops / rate: 50000 packets a side; b's share of the 2385 drops.
    ci = binomtest(1200, 2385, 0.5).proportion_ci(0.95, method="exact")
    assert cross["diff_high"].iloc[0] == pytest.approx(
        ci.high * 2385 / 50000 - (1 - ci.high) * 2385 / 50000
    )
