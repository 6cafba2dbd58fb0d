"""What Ahmad's published tables imply on their own: checks on the real and small tables."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from bufrepro.studies.dumbbell import STUDY
from bufrepro.studies.dumbbell.consistency import consistency
from conftest import REPO


def _published() -> pd.DataFrame:
    return pd.read_csv(REPO / "published" / "dumbbell.csv")


def test_floor_fails_where_a_1500_byte_packet_cannot_fit(tiny_cfg: dict[str, Any]) -> None:
    out = consistency(tiny_cfg["dumbbell"], _published())
    floor = out[(out["check"] == "delay_floor") & (out["block"].str.contains("0.5MB"))]
    row = floor[floor["table"] == "DropTail Table 5"].iloc[0]
    # 1500 B at 0.5 Mb/s (24 ms) + 2 x 2 ms + 10 ms + 2 x 12 us on the access links.
    assert row["expected"] == pytest.approx(38.024)
    assert not row["passes"] and row["value"] < row["expected"]
    assert "at most" in row["implication"]


def test_droptail_rows_at_30_and_50_match(tiny_cfg: dict[str, Any]) -> None:
    out = consistency(tiny_cfg["dumbbell"], _published())
    same = out[(out["check"] == "identical_rows") & out["table"].str.startswith("DropTail")]
    assert len(same) == 9
    assert sum("30=50" in text for text in same["implication"]) == 8


def test_little_and_lost_over_plr_on_a_small_table(tiny_cfg: dict[str, Any]) -> None:
    base = {"queue": "DropTail", "table": "T", "block": "b", "plr": 0.01, "bottleneck_mbps": 0.1}
    # At 0.1 Mb/s a 1500 B packet takes 120 ms: 14 ms + 0.024 ms + 6 x 120 ms is five packets
    # waiting besides the one being sent, more than buffer 3 holds. 1 lost at 1% is 100 packets,
    # more than 10 kb/s sends in the tiny config's 5 s (10e3 * 5 / 12000 = 4.2): it passes.
    rows = [
        {
            **base,
            "buffer": 3,
            "tcp_delay_ms": 734.024,
            "tcp_throughput_kbps": 10.0,
            "packets_lost": 1,
        },
        {
            **base,
            "buffer": 8,
            "tcp_delay_ms": 734.024,
            "tcp_throughput_kbps": 10.0,
            "packets_lost": 1,
        },
    ]
    out = consistency(tiny_cfg["dumbbell"], pd.DataFrame(rows)).set_index("check")
    little = out.loc["little_queue_le_buffer"]
    assert little["value"] == pytest.approx(5.0) and not little["passes"]
    assert little["expected"] == 3.0
    lost = out.loc["lost_over_plr"]
    assert lost["value"] == pytest.approx(100.0) and lost["passes"]
    assert lost["expected"] == pytest.approx(10e3 * 5 / 12000)
    assert not out.loc["identical_rows", "passes"]


def test_consistency_is_a_table_of_the_study() -> None:
    assert "consistency" in STUDY.tables and "consistency" in STUDY.shown_tables()
    assert (REPO / "report" / "captions" / "dumbbell" / "consistency.rst").is_file()
