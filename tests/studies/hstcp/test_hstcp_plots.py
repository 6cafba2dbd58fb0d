"""Every figure of the study is drawn, with and without the two-flow series."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from hstcp_tables import GOOD, model_for, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp import STUDY
from bufrepro.studies.hstcp.plots import series_by_case


def _series() -> pd.DataFrame:
    rows = [
        {"case": c, "time_s": t / 10, "queue_pkts": t, "cwnd_0": 2.0 * t, "cwnd_1": 1.0 * t}
        for c in ("under", "over")
        for t in range(5)
    ]
    return pd.DataFrame(rows)


def test_series_split_by_case() -> None:
    parts = series_by_case(_series())
    assert sorted(parts) == ["over", "under"]
    assert list(parts["under"].columns) == ["time_s", "queue_pkts", "cwnd_0", "cwnd_1"]
    assert list(parts["over"].index) == list(range(5))
    assert series_by_case(None) == {}


def test_every_figure_is_drawn() -> None:
    summary = summary_table(GOOD)
    for tables in (
        {"summary": summary, "model": model_for(summary), "twoflow_series": _series()},
        {"summary": summary},
    ):
        figs = STUDY.draw(defaults()["hstcp"], tables)
        assert sorted(figs) == sorted(STUDY.figures)
        for fig in figs.values():
            plt.close(fig)
