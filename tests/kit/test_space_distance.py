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
    # A zero counts: censored (+inf, a miss beyond every threshold) with no event declared ...
    assert errors.iloc[4] == math.inf
    # ... or smoothed by one event per run added to both sides.
    smoothed = distance.log_errors(diff, {"d": distance.Rule(event=1.0)})
    assert smoothed.iloc[4] == pytest.approx(math.log(6.0))
    # d: median(log 2, log 2, inf) = log 2; t: median(0, log 2) = log2 / 2.
    assert distance.distance(diff, ["d", "t"]) == pytest.approx(0.75 * math.log(2))
    assert math.isnan(distance.distance(diff, ["absent"]))
    assert distance.percent(math.log(2)) == pytest.approx(100.0)


def test_train_rows_match_by_prefix_and_the_rest_validate() -> None:
    diff = _diff()
    mask = distance.train_mask(diff, {"seed_file": ["000"]})
    assert mask.tolist() == [True, True, False, False, True]
    train, valid = distance.split_distances(diff, ["d", "t"], {"seed_file": ["000"]})
    assert train == math.inf  # d's training rows: log 2 and a censored zero
    rules = {"d": distance.Rule(event=1.0)}
    train, _ = distance.split_distances(diff, ["d", "t"], {"seed_file": ["000"]}, rules)
    # d: median(log(201 / 101), log 6); t: 0.
    assert train == pytest.approx(0.5 * (math.log(201 / 101) + math.log(6)) / 2)
    assert valid == pytest.approx(math.log(2))
    with pytest.raises(KeyError, match="no column 'nope'"):
        distance.train_mask(diff, {"nope": ["x"]})


def test_a_text_prefix_matches_whole_words_only() -> None:
    tables = pd.DataFrame({"table": ["Table II", "Table III", "Table IV", "Table II (b)"]})
    mask = distance.train_mask(tables, {"table": ["Table II"]})
    assert mask.tolist() == [True, False, False, True]


KEYS = ("setup", "tcp", "buffer")
CONFIGURED = [
    ("t1", "Reno", 10),
    ("t1", "Newreno", 10),
    ("t1", "Reno", 50),
    ("t5", "Reno", 1),
    ("t5", "Reno", 50),
    ("ping", "Reno", 10),
]


def test_read_points_put_each_setups_reading_in_and_narrow_the_rest() -> None:
    readings = {"table1": {"setup": "t1", "tcp": "Vegas"}, "t5": {"tcp": "Newreno"}}
    cells = {"buffer": [10, 50], "tcp": ["Reno"]}
    # Each setup's points take its reading's TCP (the cells' tcp does not narrow it); the
    # buffers narrow; setups without a reading (ping) are left out; each point once.
    assert space.read_points(readings, KEYS, CONFIGURED, cells) == [
        ("t1", "Vegas", 10),
        ("t1", "Vegas", 50),
        ("t5", "Newreno", 50),
    ]
    assert space.read_points(readings, KEYS, CONFIGURED, {"setup": ["t5"]}) == [
        ("t5", "Newreno", 1),
        ("t5", "Newreno", 50),
    ]


def test_sweep_grid_holds_exactly_the_points() -> None:
    grid = space.sweep_grid(KEYS, [("t1", "Reno", 10), ("t5", "Reno", 1)])
    assert grid == [
        {"name": "reading-0", "setup": ["t1"], "tcp": ["Reno"], "buffer": [10]},
        {"name": "reading-1", "setup": ["t5"], "tcp": ["Reno"], "buffer": [1]},
    ]
