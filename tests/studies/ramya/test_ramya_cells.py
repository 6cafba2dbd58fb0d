"""Our cells and the published tables in one shape: goodput in B/s, one diff row per value."""

from __future__ import annotations

import pandas as pd
from ramya_tiny import READING, synthetic_summary, tiny_config

from bufrepro.studies.ramya.cells import TABLES, cells, diff, published_wide, with_derived
from conftest import REPO


def test_goodput_in_bytes_per_second_added_once() -> None:
    summary = synthetic_summary([10], [])
    once = with_derived(summary)
    assert len(once) == len(summary) + 1
    row = once[once["metric"] == "tcp_goodput_Bps"].iloc[0]
    assert row["mean"] == 440 * 125 and row["ci_high"] == 440 * 1.01 * 125
    assert len(with_derived(once)) == len(once)
    wide = cells(summary)
    assert wide["tcp_goodput_Bps"].iloc[0] == 440 * 125


def test_published_tables_one_row_per_printed_row() -> None:
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    t5 = published_wide(published, "Table 5", {"setup": "table5", **READING})
    assert len(t5) == 8 and set(TABLES["Table 5"][1]) <= set(t5.columns)
    assert (t5["setup"] == "table5").all() and list(t5["buffer"])[:3] == [1, 2, 3]


def test_diff_counterparts_only_where_we_ran() -> None:
    block = tiny_config()["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    d = diff(block, synthetic_summary([10, 100], [1, 12]), published)
    assert len(d) == 12 + 32
    # Table 1 at 10 and 100 frames (3 metrics), Table 5 at 1 and 12 frames (4 metrics).
    assert d["has_counterpart"].sum() == 2 * 3 + 2 * 4
