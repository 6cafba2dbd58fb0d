"""The ramya notes: which reading fits which published table best, and the choices made."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from ramya_tiny import synthetic_summary, tiny_config

from bufrepro.studies.ramya import STUDY
from bufrepro.studies.ramya.notes import (
    INET_PPP_BYTES,
    _physics_notes,
    notes,
    reading_fits,
    table5_rtt_fit,
)
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
        "Table 5's reading from physics",
        "OMNeT++/INET vs ns-2",
    }


def test_table5_physics_from_the_published_table_and_config() -> None:
    block = tiny_config()["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    slope, _ = table5_rtt_fit(published)
    # One frame (MSS + TCP/IP headers + INET's PPP framing) at 1 Mb/s, to within 1%.
    frame = block["tcp"]["mss_bytes"] + block["tcp"]["header_bytes"] + INET_PPP_BYTES
    assert slope == pytest.approx(frame * 8 / 1e6, rel=0.01)
    columns = [*STUDY.grid_keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"]
    table = notes(block, pd.DataFrame(columns=columns), published)
    phys = table[table["section"] == "Table 5's reading from physics"].set_index("topic")
    assert f"{slope * 1000:.2f} ms per queued frame" in phys.loc["RTT per queued frame", "ours"]
    assert "1.00 Mb/s" in phys.loc["RTT per queued frame", "note"]
    floor = 2 * (
        2 * block["topology"]["access_delay_ms"] + block["topology"]["bottleneck_delay_ms"]
    )
    assert f"below {floor:g} ms" in phys.loc["RTT floor", "ours"]


def test_a_changed_bottleneck_delay_moves_the_floor() -> None:
    block = tiny_config()["ramya"]
    block = {**block, "topology": {**block["topology"], "bottleneck_delay_ms": 5}}
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    floor = next(r for r in _physics_notes(block, published) if r["topic"] == "RTT floor")
    assert "below 18 ms" in floor["ours"]


def test_notes_name_only_awk_files_that_exist() -> None:
    block = tiny_config()["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    columns = [*STUDY.grid_keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"]
    text = notes(block, pd.DataFrame(columns=columns), published).to_string()
    named = set(re.findall(r"awk/[a-z_/]+\.awk", text))
    assert named, "the notes name the parsers"
    for path in named:
        assert (REPO / path).is_file() or (REPO / "awk" / path).is_file(), path
