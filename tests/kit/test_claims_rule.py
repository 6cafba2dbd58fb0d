"""One rule for the paper and for us; pairs by seed, on the seeds both sides ran (hand-made)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy import stats

from bufrepro.kit import verdicts as v
from bufrepro.kit.claims import Claim, evaluate_claims, monotone, monotone_test, points
from bufrepro.kit.samples import Sample, of_runs

TH = {"holds_frac": 0.9}


def _claim() -> Claim:
    """Delay rises with plr by more than 10 ms (its smallest effect of interest)."""
    return Claim(
        "rises",
        ("all",),
        "Delay rises with loss.",
        "each plr step: delay rises by more than 10 ms",
        monotone("plr", "delay", True, ("scope",)),
        monotone_test("plr", "delay", True, ("scope",), lambda step, th: 10.0),
    )


def _paper(step: float) -> pd.DataFrame:
    return pd.DataFrame({"scope": "all", "plr": [0.0, 0.01], "delay": [100.0, 100.0 + step]})


def _runs(step: float) -> pd.DataFrame:
    seeds = [1, 2, 3, 4, 5]
    base = [98.0, 101.0, 99.5, 102.0, 100.5]
    rows = [
        {"scope": "all", "plr": 0.0, "seed": s, "delay": d}
        for s, d in zip(seeds, base, strict=True)
    ]
    rows += [
        {"scope": "all", "plr": 0.01, "seed": s, "delay": d + step + 0.1 * s}
        for s, d in zip(seeds, base, strict=True)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(
    ("step", "paper_says"),
    [
        (4.0, "no meaningful difference"),
        (25.0, "holds"),
        (-25.0, "fails"),
        (-4.0, "no meaningful difference"),
    ],
)
def test_the_papers_table_is_judged_by_the_claim_test_as_points(
    step: float, paper_says: str
) -> None:
    made = evaluate_claims(
        _paper(step), _paper(step), [_claim()], TH, scope_key="scope", runs=_runs(step)
    )
    row = made.iloc[0]
    assert row["paper_table_verdict"] == paper_says
    assert row["verdict"] == paper_says  # our tight runs say the same
    assert row["rule"] == row["paper_table_rule"] == "claim test"
    assert "published points" in row["paper_table_evidence"] or paper_says != "holds"


def test_the_sign_rule_would_have_called_a_small_rise_holds() -> None:
    """The rule the paper's column had: 4 ms up is a rise by sign, inside +-10 ms by the test."""
    made = evaluate_claims(_paper(4.0), _paper(4.0), [_claim()], TH, scope_key="scope")
    assert made.iloc[0]["paper_table_verdict"] == "holds"
    assert made.iloc[0]["paper_table_rule"] == "sign of the means"


def test_a_published_point_is_an_interval_of_no_width() -> None:
    iv = v.difference({v.PUBLISHED: 3.0}, {v.PUBLISHED: 5.5})
    assert iv.point and (iv.low, iv.estimate, iv.high) == (2.5, 2.5, 2.5)
    assert v.claim_outcome(iv, 1.0, 1) == "holds"
    assert v.claim_outcome(iv, 3.0, 1) == "no meaningful difference"
    assert v.claim_outcome(iv, 1.0, -1) == "fails"
    assert points(pd.DataFrame({"x": [1.0]}))["seed"].tolist() == [v.PUBLISHED]


A = {1: 10.2, 2: 11.9, 3: 9.7, 4: 10.8, 5: 12.4, 6: 10.1}
B = {1: 11.0, 2: 12.5, 3: 10.9, 4: 11.1, 5: 13.6, 6: 10.4}


def test_a_paired_interval_is_scipys_one_sample_t_on_the_differences() -> None:
    diffs = [B[k] - A[k] for k in sorted(A)]
    want = stats.t.interval(0.9, len(diffs) - 1, loc=stats.tmean(diffs), scale=stats.sem(diffs))
    got = v.difference(A, B, 0.9)
    assert got.paired and got.n == 6
    assert got.low == pytest.approx(want[0], abs=1e-12)
    assert got.high == pytest.approx(want[1], abs=1e-12)
    ci = stats.ttest_rel(list(B.values()), list(A.values())).confidence_interval(0.9)
    assert (got.low, got.high) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_a_missing_run_pairs_on_the_common_seeds() -> None:
    short = {k: x for k, x in B.items() if k != 4}
    got = v.difference(A, short, 0.9)
    common = sorted(short)
    diffs = [short[k] - A[k] for k in common]
    want = stats.t.interval(0.9, len(diffs) - 1, loc=stats.tmean(diffs), scale=stats.sem(diffs))
    assert got.paired and got.n == 5
    assert (got.low, got.high) == pytest.approx(want, abs=1e-12)


def test_different_seed_sets_fall_back_to_welch() -> None:
    other = {k + 100: x for k, x in B.items()}
    got = v.difference(A, other, 0.9)
    want = stats.ttest_ind(list(other.values()), list(A.values()), equal_var=False)
    ci = want.confidence_interval(0.9)
    assert not got.paired
    assert (got.low, got.high) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_samples_of_runs_pair_by_seed() -> None:
    runs = pd.DataFrame(
        {"cell": ["a", "a", "b", "b"], "seed": [1, 2, 1, 2], "x": [1.0, 2.0, 4.0, math.nan]}
    )
    got = of_runs(runs, ["cell"], "x")
    assert got["a"].values == {1: 1.0, 2: 2.0}
    assert got["b"].values == {1: 4.0}
    assert got["a"].scaled(2.0).values == {1: 2.0, 2: 4.0}
    assert Sample({1: 4.0, 2: 6.0}).over(Sample({1: 2.0, 2: 3.0})).values == {1: 2.0, 2: 2.0}
