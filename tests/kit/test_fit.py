"""The readings verdict's rules on hand-made values: factors, one-sided rows, zeros, repeats,
each metric judged on its own with a seeded bootstrap interval, unidentifiable parameters."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bufrepro.kit import distance, fit

LOSS = {"loss_rate": distance.Rule(threshold=0.0, factor=3.0, event=1e-7)}


def _rows(published: list[float], ours: list[float], metric: str = "loss_rate") -> pd.DataFrame:
    n = len(published)
    return pd.DataFrame({"metric": [metric] * n, "published": published, "ours_mean": ours})


def test_a_loss_within_a_factor_three_scores_zero_and_beyond_counts_the_excess() -> None:
    diff = _rows([1e-5, 1e-5, 1e-5], [2.9e-5, 0.34e-5, 9e-5])
    rules = {"loss_rate": distance.Rule(threshold=0.0, factor=3.0)}
    errors = distance.log_errors(diff, rules)
    assert errors.iloc[0] == 0.0 and errors.iloc[1] == 0.0
    assert errors.iloc[2] == pytest.approx(math.log(9) - math.log(3))
    # The old rule (no factor) counts the whole |log r|: about 75 % on a within-x3 reading.
    assert distance.log_errors(diff).iloc[0] == pytest.approx(math.log(2.9))


def test_a_satisfied_at_least_row_scores_zero_and_an_unsatisfied_one_counts() -> None:
    diff = _rows([0.9, 0.9], [0.97, 0.8], "link_utilisation").assign(relation=[">=", ">="])
    errors = distance.log_errors(diff)
    assert errors.iloc[0] == 0.0
    assert errors.iloc[1] == pytest.approx(math.log(0.9 / 0.8))


def test_a_zero_counts_smoothed_or_censored_never_dropped() -> None:
    diff = _rows([1e-6, 0.0], [0.0, 0.0])
    smoothed = distance.log_errors(diff, {"loss_rate": distance.Rule(event=1e-7)})
    assert smoothed.iloc[0] == pytest.approx(math.log(1.1e-6 / 1e-7))
    assert smoothed.iloc[1] == 0.0  # both zero: equal
    censored = distance.log_errors(diff)
    assert censored.iloc[0] == math.inf and censored.iloc[1] == 0.0
    # A reading that produces a zero no longer scores better than one that misses by x2.
    missing = _rows([1e-6], [2e-6])
    assert distance.distance(missing, ["loss_rate"]) < distance.distance(
        diff.iloc[:1], ["loss_rate"]
    )


def test_a_repeated_published_row_counts_once() -> None:
    diff = pd.DataFrame(
        {
            "section": ["Abstract", "V", "III.A", "Abstract"],
            "queue": ["DropTail", "DropTail", "DropTail", "RED"],
            "buffer_frac": [0.1, 0.1, 0.1, 0.1],
            "metric": ["link_utilisation"] * 4,
            "published": [0.9, 0.9, 0.9, 0.9],
            "relation": [">=", ">=", "~", ">="],
            "ours_mean": [0.8, 0.8, 0.8, 0.85],
        }
    )
    kept = distance.unique_rows(diff, ["queue", "buffer_frac"])
    # The Abstract and Section V state one claim on one cell: once; "~" is another claim.
    assert kept.index.tolist() == [0, 2, 3]


def test_each_metric_is_judged_on_its_own() -> None:
    # One metric 95 % off and one perfect: their mean (about 39 % of the log) is within 50 %,
    # but the verdict needs each metric within its own threshold.
    diff = pd.concat([_rows([1.0] * 4, [1.95] * 4, "d"), _rows([1.0] * 4, [1.0] * 4, "t")])
    diff = diff.reset_index(drop=True)
    rules = {m: distance.Rule(threshold=math.log1p(0.5)) for m in ("d", "t")}
    assert distance.distance(diff, ["d", "t"]) < math.log1p(0.5)
    judged = fit.judge(diff, None, ["d", "t"], rules)
    assert [j.outcome for j in judged] == ["beyond", "within"]
    assert fit.overall(judged) == "fails"
    assert fit.worst(judged) == pytest.approx(math.log(1.95))


def test_the_bootstrap_redraws_seeds_and_rows_and_is_seeded() -> None:
    # Two seeds far apart: the interval over seeds spans a threshold the mean is within.
    diff = _rows([1.0] * 3, [1.1] * 3, "d")
    per_seed = np.array([[1.0, 1.2]] * 3)
    rules = {"d": distance.Rule(threshold=math.log1p(0.15))}
    one = fit.judge(diff, per_seed, ["d"], rules)
    again = fit.judge(diff, per_seed, ["d"], rules)
    assert one == again  # byte-identical on a rerun
    (j,) = one
    assert j.error == pytest.approx(math.log(1.1)) and j.seeds == 2 and j.rows == 3
    assert j.low == pytest.approx(0.0) and j.high == pytest.approx(math.log(1.2))
    assert j.outcome == "spans" and fit.overall(one) == "spans"
    # Without the seeds' spread (rows only, all equal) it is within.
    assert fit.judge(diff, None, ["d"], rules)[0].outcome == "within"


def test_a_red_only_parameter_without_a_training_row_is_unidentifiable() -> None:
    diff = pd.DataFrame(
        {
            "queue": ["DropTail", "DropTail", "RED", "RED"],
            "buffer_frac": [0.1, 0.2, 0.1, 0.2],
            "metric": ["m"] * 4,
        }
    )
    acts = {"red.q_weight": {"queue": ["RED"]}, "tcp.pacing": {}}
    assert distance.unidentifiable(diff, {"queue": ["DropTail"]}, acts) == ["red.q_weight"]
    # Split by buffer within each queue: a RED row trains, the RED setting reaches it.
    assert distance.unidentifiable(diff, {"buffer_frac": [0.1]}, acts) == []
