"""The paper's claims as verdicts on simulated and model curves (claims.py)."""

from __future__ import annotations

import pandas as pd
import pytest
from hstcp_tables import GOOD, model_for, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp import params
from bufrepro.studies.hstcp.claims import evaluate, on_flows_axis


def verdicts(
    summary: pd.DataFrame, model: pd.DataFrame, twoflow: pd.DataFrame | None = None
) -> dict[str, str]:
    claims = evaluate(defaults()["hstcp"], summary, model, twoflow)
    dt = claims[claims["scope"] == "DropTail"]
    return dict(zip(dt["claim"], dt["verdict"], strict=True))


def test_claims_hold_on_a_curve_like_the_papers() -> None:
    # with the runs every profile plans at 0.1 and 0.2 of the flows' BDP (0.12, 0.24 of R1-R2)
    # (3 seeds, sd 0.01: the 90 % interval of a mean is +-0.017, clear of the bounds)
    s = summary_table({**GOOD, 0.12: 0.94, 0.2: 0.995, 0.24: 0.995}, jain={0.01: 0.7, 1.0: 0.95})
    tf = pd.DataFrame({"case": ["under", "over"], "tput_ratio_short_long": [3.0, 1.4]})
    v = verdicts(s, model_for(s, 0.01), tf)
    assert v == {
        "util_90_at_10": "holds",
        "util_90_at_10_flows_bdp": "holds",
        "util_98_at_20": "holds",
        "util_98_at_20_flows_bdp": "holds",
        "sharp_fall_below_10": "holds",
        "sharp_fall_below_10_flows_bdp": "holds",
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
    assert "model_sim_agree" not in v  # the two groups partition the cells: each counted once


def test_the_flows_bdp_axis_moves_a_claim() -> None:
    # s1's R1-R2 BDP is 0.833 of its flows' BDP: 0.1 of the flows' BDP is the run planned at
    # 0.12 of R1-R2 (params.claim_fractions), where this curve is 0.93; at 0.1 of R1-R2 it is 0.85.
    s = summary_table(
        {0.01: 0.5, 0.05: 0.8, 0.1: 0.85, 0.12: 0.93, 0.2: 0.99, 0.24: 0.99, 0.5: 0.99, 1.0: 0.995}
    )
    v = verdicts(s, model_for(s))
    assert v["util_90_at_10"] == "fails"
    assert v["util_90_at_10_flows_bdp"] == "holds"


def test_a_utilisation_within_its_interval_of_the_bound_is_undecided() -> None:
    # 0.895 at 0.1 of R1-R2, 3 seeds, sd 0.01: [0.878, 0.912] spans 0.89 (0.90 - util_tol).
    s = summary_table({0.01: 0.5, 0.05: 0.8, 0.1: 0.895, 0.2: 0.99, 0.5: 0.99, 1.0: 0.995})
    assert verdicts(s, model_for(s))["util_90_at_10"] == "undecided"


def test_nothing_is_read_between_runs_on_the_flows_axis() -> None:
    curve = [(0.1, 0.5), (0.5, 0.9), (1.0, 1.0)]
    moved = on_flows_axis(curve, 0.5)
    flat = [x for pt in moved for x in pt]
    assert flat == pytest.approx([0.05, 0.5, 0.25, 0.9, 0.5, 1.0])
    # A run planned at 0.1 of the flows' BDP (rounded on the R1-R2 axis) reads as 0.1.
    assert on_flows_axis([(0.1205, 0.9)], 0.83) == [(0.1, 0.9)]


def test_a_claim_point_without_a_run_is_untestable() -> None:
    # No run at 0.1 or 0.2 of the flows' BDP: untestable, not read off a line between 0.05 and 0.5.
    s = summary_table({0.01: 0.5, 0.05: 0.8, 0.1: 0.89, 0.2: 0.99, 0.5: 0.99, 1.0: 0.995})
    v = verdicts(s, model_for(s))
    assert v["util_90_at_10_flows_bdp"].startswith("untestable: no run at s1 DropTail")


def test_every_profile_plans_the_claim_points() -> None:
    block = defaults()["hstcp"]
    points = params.points(block)
    fracs = {round(f, 4) for s, q, f in points if s == "s1" and q == "DropTail"}
    assert {0.1, 0.2, 0.12, 0.24} <= fracs


def test_claims_fail_when_the_numbers_disagree() -> None:
    flat = {f: 0.85 for f in GOOD}  # below 90% at 10%, no fall, far from 98% at 20%
    s = summary_table(flat, jain={0.01: 0.9, 1.0: 0.8})
    tf = pd.DataFrame({"case": ["under", "over"], "tput_ratio_short_long": [1.2, 2.5]})
    v = verdicts(s, model_for(s, 0.2), tf)
    assert v["util_90_at_10"] == v["util_98_at_20"] == "fails"
    # no fall at all, tightly measured (sd 0.01, 3 seeds): inside +-fall_min both ways
    assert v["sharp_fall_below_10"] == "no meaningful difference"
    assert v["model_sim_agree_from_10"] == v["buffer_reduces_rtt_unfairness"] == "fails"


def _two(u_low: float, u_10: float, sd: float, n: int = 3) -> pd.DataFrame:
    """A summary whose utilisation is u_low at 0.01 and u_10 at 0.1 with sd, n runs each."""
    s = summary_table({**GOOD, 0.01: u_low, 0.1: u_10, 0.12: 0.94, 0.2: 0.995, 0.24: 0.995})
    low = (s["metric"] == "link_utilisation") & s["buffer_frac"].isin([0.01, 0.1])
    s.loc[low, "sd"], s.loc[low, "n"] = sd, n
    return s


def test_sharp_fall_is_a_test_against_fall_min() -> None:
    """fall_min 0.05: a fall of 0.2 with tight runs holds; the same fall with one run's spread
    0.2 at 3 seeds spans 0.05 (undecided); a fall of 0.01, tight, is no meaningful difference;
    a rise of 0.2 fails."""
    cases = {(0.7, 0.9, 0.01): "holds", (0.7, 0.9, 0.2): "undecided"}
    cases |= {(0.89, 0.9, 0.005): "no meaningful difference", (0.9, 0.7, 0.01): "fails"}
    for (low, at10, sd), want in cases.items():
        s = _two(low, at10, sd)
        assert verdicts(s, model_for(s))["sharp_fall_below_10"] == want, (low, at10, sd)


def test_model_agreement_and_fairness_are_tests() -> None:
    """agree_tol 0.05: the model 0.02 off with tight runs agrees (holds), 0.2 off fails; Jain's
    index up 0.1 (jain_tol 0.01) holds; up 0.005 at sd 0.01 and 3 seeds (interval +-0.017)
    spans 0.01: undecided, not "holds" as the means' comparison said."""
    s = summary_table(GOOD, jain={0.01: 0.8, 1.0: 0.9})
    assert verdicts(s, model_for(s, 0.02))["model_sim_agree_from_10"] == "holds"
    assert verdicts(s, model_for(s, 0.2))["model_sim_agree_from_10"] == "fails"
    assert verdicts(s, model_for(s))["buffer_reduces_rtt_unfairness"] == "holds"
    flat = summary_table(GOOD, jain={0.01: 0.9, 1.0: 0.905})
    got = verdicts(flat, model_for(flat))["buffer_reduces_rtt_unfairness"]
    assert got == "undecided"


def test_claims_untestable_without_the_fractions() -> None:
    s = summary_table({0.5: 0.99, 1.0: 0.995})
    v = verdicts(s, model_for(s))
    assert v["util_90_at_10"].startswith("untestable: no run at")
    assert v["sharp_fall_below_10"].startswith("untestable: no run at")


def test_runs_pair_the_fairness_rise_by_seed() -> None:
    """Jain's index up 0.03 from 0.01 to 1.0 BDP (jain_tol 0.01), each seed swinging by +-0.05
    at both buffers alike: from the runs, paired by seed, the rise holds; the summary's
    (n, mean, sd) of the same runs (Welch) leaves it undecided. A run missing at one buffer
    pairs on the seeds both ran."""
    swing = {1: -0.05, 2: 0.0, 3: 0.05, 4: -0.025, 5: 0.025}

    def runs(rise: float, drop: int | None = None) -> pd.DataFrame:
        rows = []
        for f, u in GOOD.items():
            for seed, e in swing.items():
                if drop == seed and f == 1.0:
                    continue
                jain = 0.8 + e + (rise if f == 1.0 else 0.0)
                rows.append(
                    {"scenario": "s1", "queue": "DropTail", "buffer_frac": f, "seed": seed,
                     "link_utilisation": u, "jain_index": jain}
                )  # fmt: skip
        return pd.DataFrame(rows)

    def fairness(r: pd.DataFrame, with_runs: bool) -> str:
        from bufrepro.kit.stats import summarise

        s = summarise(r, list(params.KEYS), ["link_utilisation", "jain_index"])
        claims = evaluate(defaults()["hstcp"], s, model_for(s), None, r if with_runs else None)
        row = claims[(claims["scope"] == "DropTail")].set_index("claim")
        return str(row.loc["buffer_reduces_rtt_unfairness", "verdict"])

    assert fairness(runs(0.03), True) == "holds"
    assert fairness(runs(0.03), False) == "undecided"
    assert fairness(runs(0.03, drop=3), True) == "holds"
    assert fairness(runs(-0.03), True) == "fails"


def test_the_model_column_is_labelled_model_and_judged_by_the_same_tests() -> None:
    s = summary_table({**GOOD, 0.12: 0.94, 0.2: 0.995, 0.24: 0.995}, jain={0.01: 0.7, 1.0: 0.95})
    claims = evaluate(defaults()["hstcp"], s, model_for(s), None)
    curve = claims[claims["claim"].isin(["util_90_at_10", "sharp_fall_below_10"])]
    curve = curve[curve["scope"] == "DropTail"]  # RED has no cell here: no rule either side
    assert (curve["paper_side"] == "model").all()
    assert (curve["rule"] == curve["paper_table_rule"]).all()
    assert curve["paper_table_rule"].eq("claim test").all()
    assert curve["paper_table_evidence"].str.contains("published points").any()
