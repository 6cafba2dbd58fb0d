"""Tables II-IV of the vegas study: their readings, published rows as cells, and their diffs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit.diff import diff_published
from bufrepro.kit.stats import wide_means
from bufrepro.kit.study import Block
from bufrepro.studies.vegas.params import KEYS, READING

# Published metric -> our metric.
METRICS = {
    "network_delay": "tcp_delay_ms_mean",
    "network_throughput": "tcp_throughput_kbps",
    "network_efficiency": "tcp_efficiency_pct",
    "delay_wrt_throughput": "delay_per_throughput",
}
# Published table -> (setup of its reading, variant).
TABLES: dict[str, tuple[str, str]] = {
    "Table II": ("packet", "standard"),
    "Table III": ("packet", "spacing"),
    "Table IV": ("rtt", "spacing"),
}


def reading_of(block: Block, table: str) -> dict[str, Any]:
    """The grid values a published table is diffed against (setup, variant, reading)."""
    setup, variant = TABLES[table]
    reading = dict(block["readings"][setup])
    return {"setup": setup, "variant": variant, **reading}


def published_wide(published: pd.DataFrame, table: str, reading: Mapping[str, Any]) -> pd.DataFrame:
    """One published table, one row per printed row, one column per printed metric, with the
    grid keys: packet size and RTT as printed (Tables II-III: the reading's RTT), the rest from
    the reading."""
    sub = published[published["table"] == table].copy()
    sub["block"] = sub["block"].astype(object).fillna("")
    index = ["seed_file", "table", "block", "row", "packet_size_bytes"]
    if table == "Table IV":
        index.append("rtt_ms")
    wide = sub.pivot_table(index=index, columns="metric", values="value", aggfunc="first")
    wide = wide.reset_index().rename(columns={"packet_size_bytes": "packet_bytes"})
    wide.columns.name = None
    wide["packet_bytes"] = wide["packet_bytes"].astype(int)
    if table != "Table IV":
        wide["rtt_ms"] = reading.get("rtt_ms")
    for key in ("setup", "variant", *READING):
        wide[key] = reading[key]
    return wide


def table_diff(
    published: pd.DataFrame, summary: pd.DataFrame, table: str, reading: Mapping[str, Any]
) -> pd.DataFrame:
    """The diff of one of Tables II-IV against the cells of one reading."""
    wide = published_wide(published, table, reading)
    return diff_published(wide, summary, KEYS, METRICS)


def cells(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per grid cell, one column per metric mean."""
    return wide_means(summary, KEYS)
