"""draw() gives the three declared figures, with and without the published table."""

from __future__ import annotations

import itertools
from typing import Any

import pandas as pd
import pytest

from bufrepro.kit.figures import plt
from bufrepro.studies.dumbbell import STUDY
from conftest import REPO


def _summary() -> pd.DataFrame:
    rows = [
        {
            "queue": q,
            "plr": plr,
            "bottleneck_mbps": 0.5,
            "buffer": b,
            "metric": m,
            "n": 3,
            "mean": v * b,
            "sd": 1.0,
            "ci_low": v * b - 1,
            "ci_high": v * b + 1,
        }
        for q in ("DropTail", "RED")
        for plr in (0.01, 0.05)
        for b in (5, 15)
        for m, v in (("tcp_delay_ms_mean", 40.0), ("tcp_throughput_kbps", 30.0))
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("with_published", [True, False])
def test_draw_gives_the_declared_figures(with_published: bool) -> None:
    pub = pd.read_csv(REPO / "published" / "dumbbell.csv")
    if not with_published:
        pub = pub.iloc[0:0]
    figures = STUDY.draw({}, {"summary": _summary(), "published": pub})
    assert tuple(figures) == STUDY.figures
    for fig in figures.values():
        assert fig.axes
        plt.close(fig)


def _cells(bws: tuple[float, ...]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "queue": q,
                "plr": plr,
                "bottleneck_mbps": bw,
                "buffer": b,
                "delay": 40.0 * b / bw,
                "throughput": 300.0 * bw + b,
            }
            for q in ("DropTail", "RED")
            for plr in (0.01, 0.05)
            for bw in bws
            for b in (5, 10, 50)
        ]
    )


def test_delay_vs_throughput_gives_each_marker_one_meaning() -> None:
    from bufrepro.studies.dumbbell.plots import PUBLISHED_MARKER, delay_vs_throughput

    pub = _cells((0.05, 0.1, 0.5)).assign(delay=lambda d: d["delay"] * 1.3)
    fig = delay_vs_throughput(_cells((0.05, 0.1, 0.5)), pub)
    legend = fig.legends[0]
    labels = [t.get_text() for t in legend.get_texts()]
    assert "published cells" in labels and len(labels) == len(set(labels)) == 2 * 3 + 1
    # One marker per bottleneck, none of them the published one.
    marker_of: dict[str, set[str]] = {}
    for ax in fig.axes:
        for coll in ax.collections:
            path = coll.get_paths()[0]
            key = str(path.vertices.round(3).tolist())
            marker_of.setdefault(key, set()).add(str(coll.get_facecolor().tolist()))
    pub_collections = [
        c
        for ax in fig.axes
        for c in ax.collections
        if c.get_edgecolor().tolist()[0][:3] == [0, 0, 0]
    ]
    assert pub_collections and PUBLISHED_MARKER == "x"
    assert len(marker_of) == 3 + 1  # three bottleneck markers and the cross
    plt.close(fig)


def test_delay_vs_throughput_legend_and_ticks_do_not_overlap() -> None:
    from bufrepro.studies.dumbbell.plots import delay_vs_throughput

    fig = delay_vs_throughput(_cells((0.1, 0.5)), _cells((0.1, 0.5)))
    fig.set_size_inches(1366 / fig.dpi * 0.9, fig.get_size_inches()[1])
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    legend_box = fig.legends[0].get_window_extent(renderer)
    for ax in fig.axes:
        assert not legend_box.overlaps(ax.get_window_extent(renderer))
        for axis in (ax.xaxis, ax.yaxis):
            boxes = [t.get_window_extent(renderer) for t in axis.get_ticklabels() if t.get_text()]
            assert 2 <= len(boxes) <= 7
            for a, b in itertools.pairwise(boxes):
                assert not a.overlaps(b), [t.get_text() for t in axis.get_ticklabels()]
    plt.close(fig)


def test_log_ticks_stay_few() -> None:
    from bufrepro.studies.dumbbell.plots import log_ticks

    assert log_ticks(20, 400) == [20, 50, 100, 200]
    assert len(log_ticks(0.01, 1e6)) <= 6
    assert log_ticks(0, 5) == []


def test_the_http_reading_draws_its_response_time(tiny_cfg: dict[str, Any]) -> None:
    """Under HTTP the delay figure shows the response time (the metric the column reads)."""
    summary = _summary()
    http = summary.assign(
        metric=summary["metric"].map(
            {
                "tcp_delay_ms_mean": "http_response_ms_mean",
                "tcp_throughput_kbps": "http_throughput_kbps",
            }
        ),
        mean=summary["mean"] * 10,
    )
    block = {**tiny_cfg["dumbbell"], "tcp": {**tiny_cfg["dumbbell"]["tcp"], "application": "HTTP"}}
    pub = pd.read_csv(REPO / "published" / "dumbbell.csv").iloc[0:0]
    figures = STUDY.draw(block, {"summary": pd.concat([summary, http]), "published": pub})
    labels = [ax.get_ylabel() for ax in figures["delay_vs_buffer"].axes]
    assert "http_response_ms_mean" in labels and "TCP delay (ms)" not in labels
    for fig in figures.values():
        plt.close(fig)
