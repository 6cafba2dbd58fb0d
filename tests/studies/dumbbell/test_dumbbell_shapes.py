"""Shapes that survive an unknown scale, on small synthetic cell tables."""

from __future__ import annotations

import pandas as pd

from bufrepro.studies.dumbbell.shapes import plateau_from, shape_verdicts, shapes, trend

TH = {"flat_frac": 0.05, "shape_frac": 0.25, "holds_frac": 0.9}


def _cells(scale: float, thr_fast: float) -> pd.DataFrame:
    rows = []
    for bw, thr in ((0.1, 50.0), (0.5, thr_fast)):
        for buffer, delay in ((5, 100.0), (10, 200.0), (50, 205.0)):
            rows.append(
                {
                    "queue": "DropTail",
                    "plr": 0.01,
                    "bottleneck_mbps": bw,
                    "buffer": buffer,
                    "delay": scale * delay,
                    "throughput": scale * thr,
                }
            )
    return pd.DataFrame(rows)


def test_trend_and_plateau() -> None:
    assert trend(pd.Series([100.0, 200.0]), 0.05) == "up"
    assert trend(pd.Series([100.0, 103.0]), 0.05) == "flat"
    assert trend(pd.Series([100.0, 50.0]), 0.05) == "down"
    # 205 is the last value; 200 lies within 5% of it, 100 does not.
    assert plateau_from(pd.Series([5, 10, 50]), pd.Series([100.0, 200.0, 205.0]), 0.05) == 10


def test_shapes_agree_whatever_the_scale() -> None:
    table = shapes(_cells(3.0, 250.0), _cells(1.0, 250.0), TH)
    assert table["agrees"].all()
    assert set(table["shape"]) == {"trend", "plateau_from", "bandwidth_ratio"}


def test_bandwidth_ratio_disagrees_beyond_shape_frac() -> None:
    table = shapes(_cells(1.0, 500.0), _cells(1.0, 250.0), TH)
    ratios = table[(table["shape"] == "bandwidth_ratio") & (table["metric"] == "throughput")]
    assert not ratios["agrees"].any() and list(ratios["ours"]) == ["10.0"] * 3
    claims = pd.DataFrame(
        {"claim": ["faster_link_more_throughput", "loss_raises_delay"], "scope": ["DropTail"] * 2}
    )
    judged = shape_verdicts(claims, table, TH["holds_frac"])
    assert list(judged["shape_verdict"]) == ["fails", "untestable"]
