"""What Tables II-IV of the Vegas paper imply on their own (arithmetic, capacity, delay, RTT)."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import consistency as kc
from bufrepro.kit.study import Block, Tables

SIMULATED = ("Table II", "Table III", "Table IV")
DELAY = "network_delay"
THROUGHPUT = "network_throughput"
RATIO = "delay_wrt_throughput"
# delay_wrt_throughput is printed with 3 decimals: half a unit of the last digit, and a little
# for the rounding of its two operands.
PRINTED_HALF_UNIT = 0.0006


def wide(published: pd.DataFrame) -> pd.DataFrame:
    """Tables II-IV, one row per printed row, one column per printed metric."""
    sub = published[published["table"].isin(SIMULATED)].copy()
    sub["rtt_ms"] = sub["rtt_ms"].astype(float)
    out = sub.pivot_table(
        index=["table", "variant", "row", "packet_size_bytes", "rtt_ms"],
        columns="metric",
        values="value",
        aggfunc="first",
        dropna=False,
    ).reset_index()
    out.columns.name = None
    return out.dropna(subset=[DELAY, THROUGHPUT], how="all")


def checks(block: Block) -> list[kc.Check]:
    """The checks of Tables II-IV; the path's slowest wired link is our reading's."""
    topo = block["topology"]
    slowest_kbps = min(topo["bottleneck_mbps"], topo["ar_bw_mbps"]) * 1e3
    by_table = ("table",)
    return [
        kc.Check(
            "ratio_is_delay_over_throughput",
            kc.at_most(
                lambda df: (df[DELAY] / df[THROUGHPUT] - df[RATIO]).abs(),
                lambda df: pd.Series(PRINTED_HALF_UNIT, index=df.index),
            ),
            "delay_wrt_throughput is network_delay / network_throughput to the printed digits "
            "(largest gap {value:.4f}).",
            "delay_wrt_throughput differs from network_delay / network_throughput by {value:.4f}, "
            "more than rounding: the columns are not from the same run or are defined otherwise.",
            by_table,
        ),
        kc.Check(
            "throughput_le_slowest_link",
            kc.at_most(
                lambda df: df[THROUGHPUT], lambda df: pd.Series(slowest_kbps, index=df.index)
            ),
            "Throughput stays below the path's slowest wired link in our reading "
            "({value:.0f} of {expected:.0f} kb/s at most).",
            "Throughput {value:.0f} kb/s exceeds the path's slowest wired link in our reading "
            "({expected:.0f} kb/s): the links are faster than we read them.",
            by_table,
        ),
        kc.Check(
            "delay_ge_half_rtt",
            kc.at_least(lambda df: df[DELAY], lambda df: df["rtt_ms"] / 2),
            "Every network delay is at least half its RTT, as a one-way delay must be "
            "(tightest {value:.1f} ms against {expected:.1f} ms).",
            "A network delay of {value:.1f} ms is below half its RTT ({expected:.1f} ms): the "
            "RTT axis is not the path's round trip, or the delay is not end to end.",
            by_table,
        ),
        kc.Check(
            "delay_ge_rtt",
            kc.at_least(lambda df: df[DELAY], lambda df: df["rtt_ms"]),
            "Every network delay is at least its RTT: it can be a round-trip time.",
            "A network delay of {value:.1f} ms is below its RTT ({expected:.0f} ms): the "
            "printed delay is not a round-trip time; a one-way delay it can be.",
            by_table,
        ),
        kc.Check(
            "delay_grows_with_packet_size",
            kc.monotone("packet_size_bytes", DELAY),
            "Delay grows with the packet size, as transmission times do.",
            "Delay falls as packets grow at {steps} B: single-run noise is larger than the "
            "transmission time's growth there.",
            ("table", "rtt_ms"),
        ),
        kc.Check(
            "delay_grows_with_rtt",
            kc.monotone("rtt_ms", DELAY),
            "Delay grows with the RTT.",
            "Delay falls as the RTT grows at {steps} ms: single-run noise (or queueing that "
            "differs between runs) is larger than the propagation's growth there.",
            ("table", "packet_size_bytes"),
        ),
        kc.Check(
            "throughput_falls_with_rtt",
            kc.monotone("rtt_ms", THROUGHPUT, increasing=False),
            "Throughput falls as the RTT grows, as a window-limited flow's does.",
            "Throughput rises with the RTT at {steps} ms: the table alternates between regimes "
            "(runs with and without a loss episode or handoff stall), not a smooth function of "
            "the RTT; single runs cannot separate the RTT's effect from that.",
            ("table", "packet_size_bytes"),
        ),
    ]


def consistency(block: Block, tables: Tables) -> pd.DataFrame:
    """results/vegas/tables/consistency.csv: each check per published table."""
    rows = wide(tables["published"])
    return kc.run_checks(
        "vegas", rows, checks(block), table_cols=("table",), block_cols=("packet_size_bytes",)
    )
