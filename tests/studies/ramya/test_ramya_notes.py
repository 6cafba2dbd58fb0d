"""The ramya notes: which reading fits which published table best, and the choices made."""

from __future__ import annotations

import pandas as pd
from ramya_tiny import synthetic_summary, tiny_config

from bufrepro.studies.ramya import STUDY
from bufrepro.studies.ramya.notes import notes, reading_fits
from conftest import REPO


def test_reading_fits_picks_the_closer_bottleneck() -> None:
    block = tiny_config()["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    near = synthetic_summary([], [1, 6, 100])
    far = near.copy()
    far["bottleneck_mbps"] = 0.5
    far.loc[far["metric"] == "tcp_throughput_kbps", ["mean", "ci_low", "ci_high"]] *= 0.5
    fits = reading_fits(block, pd.concat([near, far]), published)
    best = fits[fits["best"]].iloc[0]
    assert best["table"] == "Table 5" and best["bottleneck_mbps"] == 1.0
    assert fits["diffed"].sum() == 1


def test_notes_without_results_still_list_choices_and_differences() -> None:
    block = tiny_config()["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    columns = [*STUDY.grid_keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"]
    table = notes(block, pd.DataFrame(columns=columns), published)
    assert list(table.columns) == ["section", "topic", "paper", "ours", "note"]
    assert set(table["section"]) == {
        "choices where the paper is silent or contradicts itself",
        "OMNeT++/INET vs ns-2",
    }
