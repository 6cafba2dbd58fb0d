"""The paper's claims as verdicts on simulated and model curves (claims.py)."""

from __future__ import annotations

import pandas as pd
import pytest
from hstcp_tables import GOOD, model_for, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp.claims import evaluate, on_flows_axis


def verdicts(
    summary: pd.DataFrame, model: pd.DataFrame, twoflow: pd.DataFrame | None = None
) -> dict[str, str]:
    claims = evaluate(defaults()["hstcp"], summary, model, twoflow)
    dt = claims[claims["scope"] == "DropTail"]
    return dict(zip(dt["claim"], dt["verdict"], strict=True))


def test_claims_hold_on_a_curve_like_the_papers() -> None:
    s = summary_table(GOOD, jain={0.01: 0.7, 1.0: 0.95})
    tf = pd.DataFrame({"case": ["under", "over"], "tput_ratio_short_long": [3.0, 1.4]})
    v = verdicts(s, model_for(s, 0.01), tf)
    assert v == {
        "util_90_at_10": "holds",
        "util_90_at_10_flows_bdp": "holds",
        "util_98_at_20": "holds",
        "util_98_at_20_flows_bdp": "holds",
        "sharp_fall_below_10": "holds",
        "sharp_fall_below_10_flows_bdp": "holds",
        "model_sim_agree": "holds",
        "model_sim_agree_below_10": "holds",
        "model_sim_agree_from_10": "holds",
        "buffer_reduces_rtt_unfairness": "holds",
    }


def test_agreement_is_judged_below_and_from_a_tenth_separately() -> None:
    s = summary_table(GOOD)
    model = model_for(s)
    model.loc[model["buffer_frac"] < 0.1, "utilisation"] += 0.3  # the model far above, small B
    v = verdicts(s, model)
    assert v["model_sim_agree_below_10"] == "fails"
    assert v["model_sim_agree_from_10"] == "holds"
    assert v["model_sim_agree"] == "partly"


def test_the_flows_bdp_axis_moves_a_claim() -> None:
    # s1's R1-R2 BDP is 0.833 of its flows' BDP: 0.1 of the flows' BDP lies between the grid's
    # 0.1 and 0.2 (0.12 of R1-R2), where this curve is 0.91; at 0.1 of R1-R2 it is 0.89.
    s = summary_table({0.01: 0.5, 0.05: 0.8, 0.1: 0.89, 0.2: 0.99, 0.5: 0.99, 1.0: 0.995})
    v = verdicts(s, model_for(s))
    assert v["util_90_at_10"] == "fails"
    assert v["util_90_at_10_flows_bdp"] == "holds"


def test_curves_on_the_flows_axis_are_interpolated_at_the_claims() -> None:
    curve = [(0.1, 0.5), (0.5, 0.9), (1.0, 1.0)]
    moved = on_flows_axis(curve, 0.5)
    flat = [x for pt in moved for x in pt]
    assert flat == pytest.approx([0.05, 0.5, 0.1, 0.6, 0.2, 0.8, 0.25, 0.9, 0.5, 1.0])


def test_claims_fail_when_the_numbers_disagree() -> None:
    flat = {f: 0.85 for f in GOOD}  # below 90% at 10%, no fall, far from 98% at 20%
    s = summary_table(flat, jain={0.01: 0.9, 1.0: 0.8})
    tf = pd.DataFrame({"case": ["under", "over"], "tput_ratio_short_long": [1.2, 2.5]})
    v = verdicts(s, model_for(s, 0.2), tf)
    assert v["util_90_at_10"] == v["util_98_at_20"] == v["sharp_fall_below_10"] == "fails"
    assert v["model_sim_agree"] == v["buffer_reduces_rtt_unfairness"] == "fails"


def test_claims_untestable_without_the_fractions() -> None:
    s = summary_table({0.5: 0.99, 1.0: 0.995})
    v = verdicts(s, model_for(s))
    assert v["util_90_at_10"] == v["sharp_fall_below_10"] == "untestable"
