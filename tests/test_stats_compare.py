"""Statistics over seeds, the published diff, and claim verdicts on small synthetic tables."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from bufrepro import claims, compare, stats
from bufrepro.studies import dumbbell

THRESHOLDS = {"similar_frac": 0.1, "flat_frac": 0.05, "holds_frac": 0.9}


def test_t_interval_matches_textbook_value() -> None:
    low, high = stats.t_interval([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, sd 1.29099, t(0.975, 3) = 3.18245 -> half width 2.05426
    assert low == pytest.approx(2.5 - 2.054265, abs=1e-5)
    assert high == pytest.approx(2.5 + 2.054265, abs=1e-5)
    assert all(math.isnan(v) for v in stats.t_interval([1.0]))


def test_summarise_groups_cells() -> None:
    runs = pd.DataFrame(
        {
            "queue": ["RED"] * 3 + ["DropTail"] * 3,
            "seed": [1, 2, 3] * 2,
            "m": [1.0, 2.0, 3.0, 10.0, 10.0, 10.0],
        }
    )
    out = stats.summarise(runs, ["queue"], ["m"]).set_index("queue")
    assert out.loc["RED", "mean"] == 2.0 and out.loc["RED", "n"] == 3
    assert out.loc["DropTail", "sd"] == 0.0
    assert out.loc["DropTail", "ci_low"] == out.loc["DropTail", "ci_high"] == 10.0


def _cells(delays: dict[int, float], thr: dict[int, float]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "queue": "DropTail",
                "plr": 0.01,
                "bottleneck_mbps": 0.1,
                "buffer": b,
                "delay": delays[b],
                "throughput": thr[b],
            }
            for b in delays
        ]
    )


def test_small_buffers_claim_holds_and_fails() -> None:
    good = _cells({5: 100, 10: 150, 15: 300, 50: 400}, {5: 70, 10: 72, 15: 75, 50: 75})
    bad = _cells({5: 100, 10: 150, 15: 300, 50: 400}, {5: 40, 10: 45, 15: 75, 50: 75})
    claim = dumbbell.CLAIMS[0]
    assert claims.verdict(claim.check(good, THRESHOLDS), 0.9) == "holds"
    assert claims.verdict(claim.check(bad, THRESHOLDS), 0.9) == "fails"


def test_flat_claim_uses_threshold() -> None:
    flat = _cells({15: 300, 30: 305, 50: 310}, {15: 75, 30: 75, 50: 75})
    moving = _cells({15: 300, 30: 400, 50: 500}, {15: 75, 30: 75, 50: 75})
    claim = dumbbell.CLAIMS[1]
    assert [c.ok for c in claim.check(flat, THRESHOLDS)] == [True]
    assert [c.ok for c in claim.check(moving, THRESHOLDS)] == [False]
    assert claims.verdict([], 0.9) == "untestable"


def test_diff_marks_values_inside_ci() -> None:
    keys = ["queue", "plr", "bottleneck_mbps", "buffer"]
    published = pd.DataFrame(
        [
            {
                "seed_file": "x",
                "table": "T",
                "block": "b",
                "row": 1,
                "side": "existing",
                "queue": "RED",
                "plr": 0.01,
                "bottleneck_mbps": 0.1,
                "buffer": 5,
                "tcp_delay_ms": 10.0,
            },
            {
                "seed_file": "x",
                "table": "T",
                "block": "b",
                "row": 2,
                "side": "existing",
                "queue": "RED",
                "plr": 0.01,
                "bottleneck_mbps": 0.1,
                "buffer": 7,
                "tcp_delay_ms": 10.0,
            },
        ]
    )
    summary = pd.DataFrame(
        [
            {
                "queue": "RED",
                "plr": 0.01,
                "bottleneck_mbps": 0.1,
                "buffer": 5,
                "metric": "tcp_delay_ms_mean",
                "n": 10,
                "mean": 12.0,
                "ci_low": 9.0,
                "ci_high": 15.0,
            }
        ]
    )
    diff = compare.diff_published(published, summary, keys, {"tcp_delay_ms": "tcp_delay_ms_mean"})
    assert list(diff["in_ci"]) == [True, False]
    assert list(diff["has_counterpart"]) == [True, False]
    assert diff.loc[0, "rel_diff"] == pytest.approx(0.2)
    cov = compare.coverage(diff)
    assert (cov["published_rows"], cov["rows_with_counterpart"], cov["values_in_ci"]) == (2, 1, 1)
