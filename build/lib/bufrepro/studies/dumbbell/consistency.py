"""What Ahmad's published tables imply on their own (floors, capacity, Little, losses, rows)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit import consistency as kc
from bufrepro.kit.study import Block

TCP_HEADER_BYTES = 40
DELAY = "tcp_delay_ms"
THROUGHPUT = "tcp_throughput_kbps"
LOST = "packets_lost"


def link_numbers(block: Block) -> dict[str, float]:
    """Our reading's packet size on the wire, propagation and access transmission (ms)."""
    topo = block["topology"]
    pkt = block["tcp"]["mss_bytes"] + TCP_HEADER_BYTES
    return {
        "pkt": pkt,
        "prop_ms": 2 * topo["access_delay_ms"] + topo["bottleneck_delay_ms"],
        "access_tx_ms": 2 * pkt * 8 / (topo["access_bw_mbps"] * 1e3),
        "duration_s": block["measure"]["duration_s"],
    }


def _pkt_ms(df: pd.DataFrame, pkt: float) -> pd.Series:
    """One packet's transmission time on the bottleneck, in ms."""
    return pkt * 8 / (df["bottleneck_mbps"] * 1e3)


def floor_check(n: Mapping[str, float]) -> kc.Check:
    """Delay at least one packet's transmission plus propagation."""

    def floor(df: pd.DataFrame) -> pd.Series:
        return _pkt_ms(df, n["pkt"]) + n["prop_ms"] + n["access_tx_ms"]

    def detail(row: pd.Series) -> dict[str, Any]:
        room_ms = row[DELAY] - n["prop_ms"] - n["access_tx_ms"]
        return {
            "buffer": row["buffer"],
            "max_bytes": room_ms * row["bottleneck_mbps"] * 1e3 / 8,
        }

    return kc.Check(
        "delay_floor",
        kc.at_least(lambda df: df[DELAY], floor, detail),
        f"Every delay is at least one {n['pkt']} B packet's transmission plus our "
        f"{n['prop_ms']:g} ms of propagation (smallest {{value:.1f}} ms against "
        "{expected:.1f} ms).",
        "The smallest delay, {value:.1f} ms at buffer {buffer:g}, lies below one "
        f"{n['pkt']} B packet's transmission plus our {n['prop_ms']:g} ms of propagation "
        "({expected:.1f} ms). With our link delays only packets of at most {max_bytes:.0f} B "
        f"fit it: a {n['pkt']} B packet on the wire, these delays and delay as the one-way "
        "delay of TCP data packets cannot all hold (smaller packets, e.g. ns-2's default "
        "1000 B, shorter links, or a delay averaged over small packets would).",
        ("queue", "table", "block"),
    )


def capacity_check() -> kc.Check:
    """TCP throughput at most the bottleneck's rate."""
    return kc.Check(
        "throughput_le_capacity",
        kc.at_most(lambda df: df[THROUGHPUT], lambda df: df["bottleneck_mbps"] * 1e3),
        "TCP throughput stays below the bottleneck (at most {value:.1f} of {expected:.0f} kb/s).",
        "TCP throughput {value:.1f} kb/s exceeds the bottleneck's {expected:.0f} kb/s: it is "
        "not measured over this link alone (or the rate is not the stated one).",
        ("queue", "table", "block"),
    )


def little_check(n: Mapping[str, float]) -> kc.Check:
    """Little's law: the delay's standing queue at the link rate fits in the buffer."""

    def waiting(df: pd.DataFrame) -> pd.Series:
        return (df[DELAY] - n["prop_ms"] - n["access_tx_ms"]) / _pkt_ms(df, n["pkt"]) - 1

    return kc.Check(
        "little_queue_le_buffer",
        kc.at_most(waiting, lambda df: df["buffer"].astype(float), by_value=True),
        "Little's law: at the link rate each delay is a standing queue that fits its buffer; "
        f"the largest is only {{value:.1f}} waiting {n['pkt']} B packets, at buffer "
        "{expected:g}: the queue stays far below the large buffers (window-limited flows) - "
        "or the delay is not a FIFO's queueing delay of these packets.",
        f"Little's law: {{value:.1f}} {n['pkt']} B packets would have to wait at the link rate "
        "to give this delay, more than the buffer of {expected:g} holds: the delay is not a "
        f"FIFO's queueing of {n['pkt']} B packets at this rate (e.g. a web object's response "
        "time, as paper 000 defines latency, or a buffer counted in bytes).",
        ("queue", "table", "block"),
    )


def identical_check() -> kc.Check:
    """Different buffers, the same published row."""
    return kc.Check(
        "identical_rows",
        kc.identical_rows("buffer", [DELAY, THROUGHPUT, LOST]),
        "No two buffers give the same row.",
        "Rows at buffers {pairs} match to every digit: each is one deterministic run whose queue "
        "never reached the smaller buffer, so the flows were window-limited (a total window "
        "below that buffer) and the random loss drew the same packets at both buffers.",
        ("queue", "table", "block"),
    )


def across_queues_check() -> kc.Check:
    """Paper 000 (DropTail) and paper 001 (RED) printing the same row for the same cell."""
    return kc.Check(
        "identical_across_papers",
        kc.identical_rows("queue", ["buffer", DELAY, THROUGHPUT, LOST]),
        "DropTail's and RED's rows differ at every buffer.",
        "{value:.0f} rows of DropTail (paper 000) and RED (paper 001) match to every digit: the "
        "same run printed in both papers, or a RED queue that never dropped early nor held more "
        "than DropTail's (its thresholds above the queue that formed).",
        ("table", "plr", "bottleneck_mbps"),
    )


def monotone_check() -> kc.Check:
    """Delay grows with the buffer."""
    return kc.Check(
        "delay_grows_with_buffer",
        kc.monotone("buffer", DELAY, increasing=True),
        "Delay grows with the buffer, as a filling queue's does.",
        "Delay falls as the buffer grows at {steps}: one run's noise is larger than the "
        "buffer's effect there (or the queue never filled).",
        ("queue", "table", "block"),
    )


def lost_check(n: Mapping[str, float]) -> kc.Check:
    """lost / PLR (the packets the random loss alone implies) against the packets the
    throughput sends in our run."""
    bits = n["pkt"] * 8

    def sent(df: pd.DataFrame) -> pd.Series:
        return df[THROUGHPUT] * 1e3 * n["duration_s"] / bits

    def detail(row: pd.Series) -> dict[str, Any]:
        implied = row[LOST] / row["plr"] * bits / (row[THROUGHPUT] * 1e3)
        return {"buffer": row["buffer"], "implied_s": implied}

    return kc.Check(
        "lost_over_plr",
        kc.at_least(lambda df: df[LOST] / df["plr"], sent, detail),
        "lost / PLR is at least the packets the throughput sends in our "
        f"{n['duration_s']:g} s (tightest {{value:.0f}} against {{expected:.0f}}): the link's "
        "random loss alone can explain the counts.",
        "lost / PLR = {value:.0f} at buffer {buffer:g} is fewer packets than the throughput "
        f"sends in our {n['duration_s']:g} s ({{expected:.0f}}): if the counts include the "
        "link's random losses, that run lasted about {implied_s:.0f} s, or the count is not "
        "over the whole run.",
        ("queue", "table", "block"),
    )


def _lost_scaling(df: pd.DataFrame) -> kc.Measured | None:
    rows = df.dropna(subset=[LOST, THROUGHPUT])
    per = (
        rows.assign(ratio=rows[LOST] / rows["plr"])
        .groupby("bottleneck_mbps")[["ratio", THROUGHPUT]]
        .median()
    )
    if len(per) < 2:
        return None
    lo, hi = per.iloc[0], per.iloc[-1]
    value = float(hi["ratio"] / lo["ratio"])
    expected = float(hi[THROUGHPUT] / lo[THROUGHPUT])
    detail = {"low": float(per["ratio"].min()), "high": float(per["ratio"].max())}
    return kc.Measured(value, expected, value >= expected / 2, detail)


def scaling_check() -> kc.Check:
    """lost / PLR scales with the throughput across bandwidths (a fixed run length)."""
    return kc.Check(
        "lost_over_plr_scales_with_throughput",
        _lost_scaling,
        "lost / PLR grows {value:.1f}x from the slowest to the fastest bottleneck, as the "
        "throughput ({expected:.1f}x) over a fixed run length makes it.",
        "lost / PLR stays within {low:.0f}-{high:.0f} whatever the bandwidth ({value:.1f}x from "
        "the slowest to the fastest bottleneck, where a fixed run length would give the "
        "throughput's {expected:.1f}x): a fixed amount of data per run (a transfer, not a "
        "duration) or losses dominated by the CBR flow or the queue, not TCP over a fixed run.",
        ("queue",),
    )


def checks(block: Block) -> list[kc.Check]:
    """Every check of the dumbbell's published tables, with our reading's link numbers."""
    n = link_numbers(block)
    return [
        floor_check(n),
        capacity_check(),
        little_check(n),
        identical_check(),
        across_queues_check(),
        monotone_check(),
        lost_check(n),
        scaling_check(),
    ]


def consistency(block: Block, published: pd.DataFrame) -> pd.DataFrame:
    """results/dumbbell/tables/consistency.csv: each check per published block."""
    return kc.run_checks(
        "dumbbell",
        published,
        checks(block),
        table_cols=("queue", "table"),
        block_cols=("block", "bottleneck_mbps"),
    )
