"""What each published column reads in our runs: the delay definitions, computed without runs."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit.stats import summarise
from bufrepro.kit.study import Block
from bufrepro.studies.dumbbell import http
from bufrepro.studies.dumbbell.cells import KEYS

# An ACK's size on the wire (ns-2's 40 B of TCP/IP headers).
ACK_BYTES = 40
# The metrics compare() makes from each run's own metrics (no parser prints them).
ALL_PACKETS, ROUND_TRIP = http.DERIVED_DELAYS
DERIVED = http.DERIVED_DELAYS


def definition(block: Block) -> str:
    """compare.delay_definition with auto resolved: response under HTTP, one_way_data under FTP."""
    chosen = str(block["compare"]["delay_definition"])
    if chosen == "auto":
        return "response" if http.is_http(block) else "one_way_data"
    return chosen


def data_delay(block: Block) -> tuple[str, str]:
    """(mean, packet count) metrics of the one-way delay of the TCP data packets."""
    if http.is_http(block):
        return "http_data_delay_ms_mean", "http_data_delay_pkts"
    return "tcp_delay_ms_mean", "tcp_delay_pkts"


def published_metrics(block: Block) -> dict[str, str]:
    """Published column -> our metric, under the block's traffic and delay definition.

    Under HTTP the responses are the TCP data: ns-2's FullTcp types the server's packets "ack"
    (tcp-full.cc, listen()), so the loss column reads their drops (http_drops_total) and the
    throughput column the responses' (http_throughput_kbps).
    """
    delay = {
        "one_way_data": data_delay(block)[0],
        "one_way_all": ALL_PACKETS,
        "rtt": ROUND_TRIP,
        "response": "http_response_ms_mean",
    }[definition(block)]
    if http.is_http(block):
        return {
            "tcp_delay_ms": delay,
            "tcp_throughput_kbps": "http_throughput_kbps",
            "packets_lost": "http_drops_total",
        }
    return {
        "tcp_delay_ms": delay,
        "tcp_throughput_kbps": "tcp_throughput_kbps",
        "packets_lost": "tcp_drops_total",
    }


def ack_one_way_ms(block: Block, bottleneck_mbps: pd.Series) -> pd.Series:
    """An ACK's one-way delay on the idle reverse path 6 -> 5 -> 4 -> source (ms).

    Propagation (two access hops and the bottleneck) and the 40 B transmission on each hop: the
    reverse direction carries ACKs alone, one per data packet, far below its rate, so an ACK
    waits only when two arrive within one ACK's transmission (after a SYN or a small packet):
    a floor that the mean exceeds by well under 1 % (tests/studies/dumbbell/test_dumbbell_delays).
    """
    topo = block["topology"]
    propagation = 2 * topo["access_delay_ms"] + topo["bottleneck_delay_ms"]
    bits = ACK_BYTES * 8
    access = 2 * bits / (topo["access_bw_mbps"] * 1e3)
    floor = float(propagation + access)
    return (bits / (bottleneck_mbps.astype(float) * 1e3)).add(floor)


def derived_runs(block: Block, runs: pd.DataFrame) -> pd.DataFrame:
    """The runs with the derived delay columns: all packets (TCP data and CBR), and the RTT.

    delay_all_ms_mean is the packet-weighted mean of the TCP data and CBR delays - exactly the
    mean over both kinds of packets; delay_rtt_ms_mean is the data delay plus ack_one_way_ms.
    """
    mean, count = data_delay(block)
    n_data = runs[count].fillna(0).astype(float)
    n_cbr = runs["cbr_delay_pkts"].fillna(0).astype(float)
    weighted = runs[mean].fillna(0) * n_data + runs["cbr_delay_ms_mean"].fillna(0) * n_cbr
    total = (n_data + n_cbr).where(n_data + n_cbr > 0)
    out = runs.copy()
    out[ALL_PACKETS] = weighted / total
    out[ROUND_TRIP] = runs[mean] + ack_one_way_ms(block, runs["bottleneck_mbps"])
    return out


def with_definition(block: Block, summary: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """The summary, with the rows of the derived delay metric when the definition needs one."""
    metric = published_metrics(block)["tcp_delay_ms"]
    if metric not in DERIVED:
        return summary
    extra = summarise(derived_runs(block, runs), list(KEYS), [metric])
    return pd.concat([summary, extra], ignore_index=True)
