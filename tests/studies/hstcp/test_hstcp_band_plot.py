"""The readings band's figure (band_plot.py): one panel per scenario, every reading a line."""

from __future__ import annotations

import pandas as pd

from bufrepro.studies.hstcp import STUDY, band_plot


def band_table() -> pd.DataFrame:
    rows = []
    for scen in ("s1", "s2"):
        for pacing in (False, True):
            for ratio in (0.2, 10.0):
                for frac, u in ((0.01, 0.2 + 0.6 * pacing), (0.1, 0.9)):
                    rows.append(
                        {
                            "scenario": scen,
                            "pacing": pacing,
                            "access_ratio": ratio,
                            "buffer_frac": frac,
                            "link_utilisation": u,
                            "buffer_pkts": int(frac * 1000),
                            "model_utilisation": 0.5,
                            "band_low": 0.2 if frac == 0.01 else 0.9,
                            "band_high": 0.8 if frac == 0.01 else 0.9,
                            "a_priori": not pacing and ratio == 10.0,
                        }
                    )
    return pd.DataFrame(rows)


def test_one_panel_per_scenario_one_line_per_reading() -> None:
    fig = band_plot.draw(band_table())
    assert len(fig.axes) == 2
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert len(labels) == 2 * 2 + 1  # pacing x access ratio, and the model
    assert "unpaced, access x10 (a priori)" in labels


def test_without_band_runs_the_figure_says_so() -> None:
    fig = band_plot.draw(None)
    assert "no band runs" in fig.axes[0].texts[0].get_text()


def test_the_study_draws_the_band_figure() -> None:
    assert band_plot.FIGURE in STUDY.figures
