"""pipeline.precise on hand-made runs: each margin metric's half-width against half its margin."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from bufrepro.kit import crosssim
from bufrepro.pipeline import precise

MARGINS = {
    "util": crosssim.Margin("absolute", 0.01),
    "delay": crosssim.Margin("relative", 0.10),
    "drops": crosssim.Margin("count", 0.10, floor=3),
    "loss": crosssim.Margin("rate", 0.5, events=("drops",)),
}


def runs() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "buffer": [10, 10, 10, 20, 20, 20],
            "seed": [1, 2, 3, 1, 2, 3],
            "util": [0.900, 0.901, 0.902, 0.80, 0.90, 0.70],
            "delay": [100.0, 101.0, 99.0, 50.0, 80.0, 20.0],
            "drops": [400, 420, 410, 1, 0, 2],
            "loss": [0.01, 0.011, 0.0105, 0.0, 0.0, 0.0001],
        }
    )


def test_half_widths_against_half_the_margins() -> None:
    t = precise.table(runs(), ["buffer"], MARGINS).set_index(["buffer", "metric"])
    u = t.loc[(10, "util")]
    # t(0.975, 2) x sd 0.001 / sqrt(3) = 0.002484
    assert u["kind"] == "absolute" and u["target"] == 0.005
    assert u["half_width"] == pytest.approx(4.302653 * 0.001 / math.sqrt(3), rel=1e-5)
    assert u["reached"] and u["more_runs"] == 0
    wide = t.loc[(20, "util")]
    assert not wide["reached"] and wide["more_runs"] > 100
    assert t.loc[(10, "delay"), "kind"] == "relative"
    assert t.loc[(10, "delay"), "target"] == 0.05
    # 1,230 pooled drops: the exact Poisson interval's half-width is about 5.6 %, over 5 %.
    d = t.loc[(10, "drops")]
    assert d["kind"] == "events" and not d["reached"] and d["more_runs"] == 1
    # About 1 drop a run: the floor (3 a run) sets the band, so the target is 1.5 packets.
    f = t.loc[(20, "drops")]
    assert (f["kind"], f["target"]) == ("absolute", 1.5)
    # A rate's target reads its events (the drops), not the rate's own spread.
    assert t.loc[(10, "loss"), "kind"] == "events"
    assert t.loc[(10, "loss"), "half_width"] == t.loc[(10, "drops"), "half_width"]


def test_no_margin_metric_gives_an_empty_table() -> None:
    t = precise.table(runs(), ["buffer"], {"other": crosssim.Margin()})
    assert t.empty and list(t.columns) == ["buffer", *precise.COLUMNS]
