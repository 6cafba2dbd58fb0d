"""kit.space (parameters, readings, dotted keys, digests) and kit.distance (log errors, splits)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from bufrepro.kit import distance, space


def test_value_sets_map_to_levels_by_index() -> None:
    p = space.parameter("tcp.agent", {"values": ["Sack1", "Newreno", "Reno"]})
    # Four Morris levels 0, 1/3, 2/3, 1 over three values: the last two share the last value.
    assert [p.value(u) for u in (0.0, 1 / 3, 2 / 3, 1.0)] == ["Sack1", "Newreno", "Reno", "Reno"]
    assert p.extremes() == ["Sack1", "Newreno", "Reno"]


def test_ranges_linear_log_and_integer() -> None:
    lin = space.parameter("a", {"range": [0, 10]})
    log = space.parameter("b", {"range": [0.1, 10], "scale": "log"})
    whole = space.parameter("c", {"range": [1, 4], "integer": True})
    assert lin.value(0.25) == 2.5
    assert log.value(0.5) == pytest.approx(1.0)
    assert whole.value(0.5) == 2 and isinstance(whole.value(0.5), int)
    assert lin.value(-1) == 0 and lin.value(2) == 10
    assert log.extremes() == [0.1, 10.0]


def test_apply_sets_dotted_keys_without_touching_the_original() -> None:
    block = {"tcp": {"mss_bytes": 1460, "agent": "Sack1"}, "seeds": [1]}
    out = space.apply(block, {"tcp.mss_bytes": 1000})
    assert out["tcp"] == {"mss_bytes": 1000, "agent": "Sack1"}
    assert block["tcp"]["mss_bytes"] == 1460


def test_digest_ignores_left_out_keys_only() -> None:
    a = {"tcp": {"w": 1}, "seeds": [1]}
    assert space.digest(a, ["seeds"]) == space.digest({**a, "seeds": [2]}, ["seeds"])
    assert space.digest(a, ["seeds"]) != space.digest({**a, "tcp": {"w": 2}}, ["seeds"])


def _diff() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "seed_file": ["000_a.txt", "000_a.txt", "001_b.txt", "001_b.txt", "000_a.txt"],
            "metric": ["d", "t", "d", "t", "d"],
            "published": [100.0, 10.0, 100.0, 10.0, 0.0],
            "ours_mean": [200.0, 10.0, 50.0, 20.0, 5.0],
        }
    )


def test_distance_is_the_mean_over_metrics_of_median_abs_log() -> None:
    diff = _diff()
    errors = distance.log_errors(diff)
    assert errors.iloc[0] == pytest.approx(math.log(2))
    assert math.isnan(errors.iloc[4])  # a published zero has no log ratio
    # d: median(log 2, log 2) = log 2; t: median(0, log 2) = log2 / 2.
    assert distance.distance(diff, ["d", "t"]) == pytest.approx(0.75 * math.log(2))
    assert math.isnan(distance.distance(diff, ["absent"]))
    assert distance.percent(math.log(2)) == pytest.approx(100.0)


def test_train_rows_match_by_prefix_and_the_rest_validate() -> None:
    diff = _diff()
    mask = distance.train_mask(diff, {"seed_file": ["000"]})
    assert mask.tolist() == [True, True, False, False, True]
    train, valid = distance.split_distances(diff, ["d", "t"], {"seed_file": ["000"]})
    assert train == pytest.approx(0.5 * math.log(2))
    assert valid == pytest.approx(math.log(2))
    with pytest.raises(KeyError, match="no column 'nope'"):
        distance.train_mask(diff, {"nope": ["x"]})
