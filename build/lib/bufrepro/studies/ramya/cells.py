"""Our cell means and the published Tables 1 and 5 in one shape, and the diff of each table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit.diff import diff_published
from bufrepro.kit.stats import wide_means
from bufrepro.kit.study import Block
from bufrepro.studies.ramya.params import KEYS, READING

# Published table -> (our setup, its config key under readings, published metric -> our metric).
TABLES: dict[str, tuple[str, dict[str, str]]] = {
    "Table 1": (
        "table1",
        {
            "goodput": "tcp_goodput_Bps",
            "avg_rtt": "tcp_rtt_s_mean",
            "packets_dropped": "tcp_drops_total",
        },
    ),
    "Table 5": (
        "table5",
        {
            "throughput": "tcp_throughput_kbps",
            "rtt": "tcp_rtt_s_mean",
            "packet_drops": "tcp_drops_total",
            "avg_queue_length": "link_queue_avg_pkts",
        },
    ),
}


def with_derived(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary plus tcp_goodput_Bps = tcp_goodput_kbps x 125 (bytes/s, Table 1's unit)."""
    kbps = summary[summary["metric"] == "tcp_goodput_kbps"].copy()
    if kbps.empty or (summary["metric"] == "tcp_goodput_Bps").any():
        return summary
    for col in ("mean", "sd", "ci_low", "ci_high"):
        kbps[col] = kbps[col] * 125.0
    kbps["metric"] = "tcp_goodput_Bps"
    return pd.concat([summary, kbps], ignore_index=True)


def cells(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per grid cell, one column per metric mean (tcp_goodput_Bps included)."""
    return wide_means(with_derived(summary), KEYS)


def reading_of(block: Block, table: str) -> dict[str, Any]:
    """The configured cell (setup, tcp, bottleneck_mbps, rwnd_bytes) of a published table."""
    return dict(block["readings"][TABLES[table][0]])


def published_wide(published: pd.DataFrame, table: str, reading: Mapping[str, Any]) -> pd.DataFrame:
    """One published table, one row per printed row and one column per printed metric, with
    the grid keys of `reading` and buffer = the printed buffer size."""
    sub = published[published["table"] == table].copy()
    sub["block"] = sub["block"].astype(object).fillna("")
    wide = sub.pivot_table(
        index=["seed_file", "table", "block", "row", "buffer_frames"],
        columns="metric",
        values="value",
        aggfunc="first",
    ).reset_index()
    wide.columns.name = None
    wide = wide.rename(columns={"buffer_frames": "buffer"})
    for key in ("setup", *READING):
        wide[key] = reading[key]
    return wide


def table_diff(
    published: pd.DataFrame, summary: pd.DataFrame, table: str, reading: Mapping[str, Any]
) -> pd.DataFrame:
    """The diff of one published table against the cells of one reading."""
    wide = published_wide(published, table, reading)
    return diff_published(wide, with_derived(summary), KEYS, TABLES[table][1])


def diff(block: Block, summary: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """The diff of both tables against their configured readings (ramya.readings)."""
    return pd.concat(
        [table_diff(published, summary, t, reading_of(block, t)) for t in TABLES],
        ignore_index=True,
    )
