"""The diff of the paper's quantitative claims: each claim on its cells, and its relation."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hstcp_tables import GOOD, model_for, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp.diff import diff_claims, relation_holds
from conftest import REPO


def test_diff_places_each_claim_on_its_cells() -> None:
    s = pd.concat(
        [summary_table(GOOD, scen=sc, queue=q) for sc in ("s1", "s2") for q in ("DropTail", "RED")]
    )
    published = pd.read_csv(REPO / "published" / "hstcp_claims.csv")
    diff = diff_claims(published, s, model_for(s), defaults()["hstcp"]["claims"])
    by_row = diff.groupby("row")
    # abstract: every cell at 10%; III.A: scenario 1 DropTail only; IV.A 1e-6: scenario 2 RED
    assert len(by_row.get_group(1)) == 4 and set(by_row.get_group(1)["buffer_frac"]) == {0.1}
    assert set(zip(by_row.get_group(4)["scenario"], by_row.get_group(4)["queue"], strict=True)) == {
        ("s1", "DropTail")
    }
    assert set(by_row.get_group(7)["queue"]) == {"RED"} and set(
        by_row.get_group(7)["scenario"]
    ) == {"s2"}
    # IV.A 1e-5 covers buffer ratios >= 0.1 of scenario 1 RED
    assert sorted(by_row.get_group(6)["buffer_frac"]) == [0.1, 0.2, 0.5, 1.0]
    assert 3 not in by_row.groups and 10 not in by_row.groups  # qualitative claims are not rows
    row1 = by_row.get_group(1).iloc[0]
    assert row1["ours_mean"] == 0.93 and bool(row1["sim_agrees"]) and not math.isnan(row1["model"])


def test_diff_carries_the_prediction_interval_of_one_run() -> None:
    s = summary_table({0.1: 0.93, 0.2: 0.95})
    s.loc[s["buffer_frac"] == 0.2, ["n", "sd"]] = [1, math.nan]  # one seed: no interval
    published = pd.read_csv(REPO / "published" / "hstcp_claims.csv")
    diff = diff_claims(published, s, model_for(s), defaults()["hstcp"]["claims"])
    ten = diff[diff["buffer_frac"] == 0.1].iloc[0]
    # n = 3, sd = 0.01: t(0.975, 2) = 4.303, half-width t * sd * sqrt(1 + 1/3) = 0.0497
    assert ten["pi_high"] - ten["ours_mean"] == pytest.approx(0.04969, abs=1e-5)
    assert ten["ours_mean"] - ten["pi_low"] == pytest.approx(0.04969, abs=1e-5)
    assert ten["z"] == pytest.approx((ten["published"] - 0.93) / 0.01)
    assert bool(ten["in_pi"]) == (ten["pi_low"] <= ten["published"] <= ten["pi_high"])
    assert diff["in_pi"].any() and not diff["in_pi"].all()
    one = diff[diff["buffer_frac"] == 0.2]
    assert one["pi_low"].isna().all() and not one["in_pi"].any()


@pytest.mark.parametrize(
    ("rel", "value", "claimed", "quantity", "ok"),
    [
        (">=", 0.9, 0.9, "utilization", True),
        (">=", 0.899, 0.9, "utilization", False),
        ("~", 0.972, 0.98, "utilization", True),
        ("~", 0.96, 0.98, "utilization", False),
        ("~", 2.9e-3, 1e-3, "loss_rate", True),
        ("=", 4e-5, 1e-5, "loss_rate", False),
        ("~", math.nan, 1e-3, "loss_rate", False),
    ],
)
def test_relations(rel: str, value: float, claimed: float, quantity: str, ok: bool) -> None:
    th = {"util_tol": 0.01, "loss_factor": 3}
    assert relation_holds(rel, value, claimed, quantity, th) is ok
