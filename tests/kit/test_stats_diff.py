"""Statistics over seeds and the published diff on small synthetic tables."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from bufrepro.kit import diff as compare
from bufrepro.kit import stats


def test_t_interval_matches_textbook_value() -> None:
    low, high = stats.t_interval([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, sd 1.29099, t(0.975, 3) = 3.18245 -> half width 2.05426
    assert low == pytest.approx(2.5 - 2.054265, abs=1e-5)
    assert high == pytest.approx(2.5 + 2.054265, abs=1e-5)
    assert all(math.isnan(v) for v in stats.t_interval([1.0]))


def test_t_quantile_is_scipy_stats_t_ppf_to_the_bit() -> None:
    """stats.t_quantile calls scipy.stats.t.ppf's kernel (special.stdtrit) without importing
    scipy.stats: the same double for every n and confidence the tools use."""
    from scipy.stats import t

    for confidence in (0.9, 0.95, 0.99):
        for n in range(2, 300):
            want = float(t.ppf(0.5 + confidence / 2, n - 1))
            assert stats.t_quantile(n, confidence) == want, (n, confidence)
    assert math.isnan(stats.t_quantile(1))


def test_prediction_interval_matches_textbook_value() -> None:
    low, high = stats.prediction_interval([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, sd 1.29099, t(0.975, 3) = 3.18245 -> half width 3.18245 * 1.29099 * sqrt(1.25)
    assert low == pytest.approx(2.5 - 4.593, abs=1e-3)
    assert high == pytest.approx(2.5 + 4.593, abs=1e-3)
    assert all(math.isnan(v) for v in stats.prediction_interval([1.0]))
    # Wider than the CI of the mean by sqrt(n + 1).
    ci_low, _ = stats.t_interval([1.0, 2.0, 3.0, 4.0])
    assert (2.5 - low) / (2.5 - ci_low) == pytest.approx(math.sqrt(5))


def test_standardized_residual() -> None:
    assert stats.standardized_residual(20.0, 12.0, 4.0) == 2.0
    assert math.isnan(stats.standardized_residual(20.0, 12.0, 0.0))
    assert math.isnan(stats.standardized_residual(20.0, 12.0, math.nan))


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
                "sd": 4.0,
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
    assert cov["values_in_pi"] == 1
    # The published 10 is half an sd below our mean, inside the prediction interval.
    assert diff.loc[0, "z"] == pytest.approx(-0.5)
    assert list(diff["in_pi"]) == [True, False]


def test_single_run_outside_ci_can_lie_inside_pi() -> None:
    keys = ["buffer"]
    published = pd.DataFrame({"table": ["T", "T"], "buffer": [5, 7], "delay": [20.0, 40.0]})
    # Mean 12 and sd 4 over 10 runs: CI of the mean 12 +- 2.86, one run's PI 12 +- 9.49.
    low, high = 12.0 - 2.8614, 12.0 + 2.8614
    summary = pd.DataFrame(
        [
            {
                "buffer": b,
                "metric": "d",
                "n": 10,
                "mean": 12.0,
                "sd": sd,
                "ci_low": low,
                "ci_high": high,
            }
            for b, sd in ((5, 4.0), (7, 4.0))
        ]
    )
    diff = compare.diff_published(published, summary, keys, {"delay": "d"})
    assert list(diff["in_ci"]) == [False, False]
    assert list(diff["in_pi"]) == [True, False]
    assert list(diff["z"]) == [2.0, 7.0]
    # t(0.975, 9) = 2.262157 -> half width 2.262157 * 4 * sqrt(1.1)
    assert diff.loc[0, "pi_high"] == pytest.approx(12.0 + 9.4904, abs=1e-3)
    assert compare.coverage(diff)["values_in_pi"] == 1


def test_format_diff_hides_bookkeeping_and_shows_percent() -> None:
    diff = pd.DataFrame(
        [
            {
                "seed_file": "x",
                "block": "b",
                "row": 1,
                "buffer": 5,
                "published": 10.0,
                "ours_mean": 12.0,
                "ci_low": 9.0,
                "ci_high": 15.0,
                "rel_diff": 0.2,
                "in_ci": True,
                "has_counterpart": True,
            }
        ]
    )
    text = compare.format_diff(diff)
    assert "+20%" in text and "seed_file" not in text and "has_counterpart" not in text
    assert "a test of our mean, not of one run" in text
    assert "prediction interval" not in text
    assert "block" in compare.format_diff(diff, ["block", "rel_diff"])
