"""The paper's claims as verdicts on simulated and model curves (claims.py)."""

from __future__ import annotations

import pandas as pd
from hstcp_tables import GOOD, model_for, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp.claims import evaluate


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
        "util_98_at_20": "holds",
        "sharp_fall_below_10": "holds",
        "model_sim_agree": "holds",
        "buffer_reduces_rtt_unfairness": "holds",
    }


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
