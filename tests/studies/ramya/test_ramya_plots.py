"""draw() gives the five declared figures from the summary, the published table and the series."""

from __future__ import annotations

import pandas as pd
import pytest
from ramya_tiny import READING, synthetic_summary

from bufrepro.kit.figures import plt
from bufrepro.studies.ramya import STUDY
from conftest import REPO


def _latency(buffers: list[int], windows: list[int]) -> pd.DataFrame:
    rows = [
        {"setup": "latency", **READING, "bottleneck_mbps": 0.5, "rwnd_bytes": w, "buffer": b,
         "metric": m, "n": 2, "mean": v * b, "sd": 0.0, "ci_low": v * b, "ci_high": v * b}
        for b in buffers
        for w in windows
        for m, v in (("ping_rtt_ms_mean", 50.0), ("ping_rtt_ms_p95", 60.0),
                     ("tcp_rtt_s_mean", 0.05), ("tcp_goodput_kbps", 400.0))
    ]  # fmt: skip
    return pd.DataFrame(rows)


def _series() -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"setup": "latency", **READING, "buffer": b, "seed": 1, "time_s": t / 10,
             "queue_pkts": min(t, b)}
            for b in (10, 100)
            for t in range(50)
        ]
    )  # fmt: skip


def test_draw_gives_the_declared_figures() -> None:
    summary = pd.concat(
        [
            synthetic_summary([10, 100], [1, 12]),
            _latency([10, 100], [102400]),
            _latency([500], [4096, 102400]),
        ]
    )
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    tables = {"summary": summary, "published": published, "queue_series": _series()}
    figures = STUDY.draw({}, tables)
    assert set(figures) == set(STUDY.figures)
    for fig in figures.values():
        plt.close(fig)


@pytest.mark.filterwarnings("ignore:No artists with labels found")
def test_queue_figure_without_latency_runs() -> None:
    empty = _series().iloc[0:0]
    summary = synthetic_summary([10], [1])
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    figures = STUDY.draw({}, {"summary": summary, "published": published, "queue_series": empty})
    assert "no latency runs configured" in [
        t.get_text() for t in figures["queue_over_time"].axes[0].texts
    ]
    for fig in figures.values():
        plt.close(fig)
