"""What Ramya's Tables 1 and 5 imply on their own, on the real published table."""

from __future__ import annotations

import pandas as pd
import pytest

from bufrepro.pipeline import configuration
from bufrepro.studies.ramya import STUDY
from bufrepro.studies.ramya.consistency import consistency, wide
from conftest import REPO, merged


def _published() -> pd.DataFrame:
    return pd.read_csv(REPO / "published" / "ramya.csv")


def test_wide_puts_both_tables_in_kbps_and_seconds() -> None:
    rows = wide(_published()).set_index(["table", "buffer_frames"])
    # Table 1 prints goodput in B/s, Table 5 throughput in kbit/s.
    t1 = _published().query("table == 'Table 1' and buffer_frames == 10 and metric == 'goodput'")
    assert rows.loc[("Table 1", 10), "kbps"] == pytest.approx(t1["value"].iloc[0] * 8 / 1e3)
    assert rows["rtt_s"].notna().all() and rows["drops"].notna().all()


def test_table5_implies_a_faster_bottleneck_and_halved_delays() -> None:
    block = configuration.validate(merged({"studies": ["ramya"]}))["ramya"]
    out = consistency(block, {"published": _published()}).set_index(["table", "check"])
    assert out.loc[("Table 1", "throughput_le_stated_b2"), "passes"]
    assert not out.loc[("Table 5", "throughput_le_stated_b2"), "passes"]
    assert not out.loc[("Table 5", "rtt_ge_stated_delays"), "passes"]
    little = out.loc[("Table 5", "little_rtt_per_queued_frame")]
    # 576 B frames at 0.5 Mb/s take 9.2 ms; the table's RTT rises about half that per frame.
    assert little["expected"] == pytest.approx(9.216)
    assert little["value"] == pytest.approx(little["expected"] / 2, rel=0.05)
    assert not out.loc[("Table 1", "drops_fall_with_buffer"), "passes"]


def test_consistency_is_a_shown_table() -> None:
    assert "consistency" in STUDY.tables and "consistency" in STUDY.shown_tables()
    assert (REPO / "report" / "captions" / "ramya" / "consistency.rst").is_file()
