"""draw() gives the three declared figures, with and without the published table."""

from __future__ import annotations

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
