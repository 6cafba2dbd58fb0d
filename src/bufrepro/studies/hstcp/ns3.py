"""The hstcp scenario on ns-3: the program's arguments (ns3/hstcp.cc) and its checks."""

from __future__ import annotations

import math
from typing import Any

from bufrepro.backends.fingerprint import run_digest
from bufrepro.backends.simulators.ns3 import queue_arguments, tcp_arguments
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp import params as run_params

PROGRAM = "hstcp"
# ns-3's TcpHighSpeed has RFC 3649's table built in: these hstcp.* values, nothing else.
RFC3649 = {"w_low": 38, "w_high": 83000, "p_high": 1.0e-7, "b_high": 0.1}
# Socket buffers: this many times the most a flow can have in flight (the capacity over the
# longest RTT plus the buffer), so that they never limit the window, as ns-2's window_.
SOCKET_HEADROOM = 2


def red_q_weight(q_weight: float, mbps: float, delay_ms: float, packet_bytes: int) -> float:
    """ns-2's RED queue weight: q_weight_ as given, or -1's automatic value (red.cc:
    1 - exp(-1 / (10 rtt C)), C the link's packets a second, rtt = max(0.1, 3 (delay + 1 / C)))."""
    if q_weight != -1:
        return q_weight
    ptc = mbps * 1e6 / (8 * packet_bytes)
    rtt = max(0.1, 3 * (delay_ms / 1000 + 1 / ptc))
    return round(1 - math.exp(-1 / (10 * rtt * ptc)), 12)


def waiting(queue: str, buffer: int) -> int:
    """Waiting packets as ns-2's queue holds them: DropTail limit_ B holds B - 1, RED B."""
    return buffer - 1 if queue == "DropTail" else buffer


def red_attributes(p: dict[str, Any], red: Block, pkt: int) -> dict[str, Any]:
    """ns-3's RED attributes for the ns-2 run's RED: its thresholds, weight (ns-2's automatic
    one when -1), gentleness and adaptation, LInterm the inverse of max_p, the packet size."""
    return {
        "MinTh": p["red_min_th"],
        "MaxTh": p["red_max_th"],
        "QW": red_q_weight(red["q_weight"], p["bottleneck_mbps"], p["bottleneck_delay_ms"], pkt),
        "LInterm": 1.0 / float(red["max_p"]),
        "Gentle": red["gentle"],
        "AdaptMaxP": red["adaptive"],
        "MeanPktSize": pkt,
    }


def arguments(block: Block, point: RunPoint) -> dict[str, Any]:
    """The program's arguments for one grid run (only validated numbers and enum words)."""
    p = run_params.params(block, point)
    sc = block["scenarios"][point.get("scenario")]
    tcp, red, ns3 = block["tcp"], block["red"], block["ns3"]
    queue = str(point.get("queue"))
    pkt = int(p["packet_bytes"])
    in_flight = p["capacity_bps"] * sc["rtt_max_ms"] / 1000 / (8 * pkt) + p["buffer_pkts"]
    return {
        "study": point.owner,
        "run": run_digest(point),
        "end": block["measure"]["duration_s"],
        "seed": point.seed,
        **queue_arguments(
            queue, red_attributes(p, red, pkt), pkt * 8 / (float(p["bottleneck_mbps"]) * 1e3)
        ),
        "waiting": waiting(queue, p["buffer_pkts"]),
        "bufferPkts": p["buffer_pkts"],
        "bottleneckMbps": p["bottleneck_mbps"],
        "bottleneckDelayMs": p["bottleneck_delay_ms"],
        "accessMbps": p["access_mbps"],
        "sinkMbps": p["sink_mbps"],
        "sinkDelayMs": p["sink_delay_ms"],
        "accessDelaysMs": "_".join(f"{f['access_delay_ms']:g}" for f in p["flows"]),
        "accessWaiting": block["topology"]["access_queue_pkts"] - 1,
        "packetBytes": pkt,
        **tcp_arguments(ns3["tcp_variant"], ns3["recovery"]),
        "sack": ns3["sack"],
        "iw": ns3["initial_window_pkts"],
        "delAck": ns3["delayed_ack_segments"],
        "sockPkts": min(tcp["window_pkts"], math.ceil(SOCKET_HEADROOM * in_flight)),
        "initialRto": ns3["initial_rto_s"],
        "minRto": ns3["min_rto_s"],
        "tick": tcp["tick_s"],
        "startS": tcp["start_s"],
        "startJitter": tcp["start_jitter_s"],
        "warmup": block["measure"]["warmup_s"],
        "duration": block["measure"]["duration_s"],
        "sampleS": block["measure"]["sample_s"],
        "trace": "none" if block["trace_level"] == "none" else run_params.STREAM,
    }


def problems(study: str, block: Block) -> list[str]:
    """What the ns-3 program cannot run: other HSTCP parameters, pacing, per-packet events,
    buffers of fewer than 2 waiting packets."""
    found = [
        f"config key {study}.hstcp.{k}: {block['hstcp'][k]} on ns3; its TcpHighSpeed has RFC "
        f"3649's table built in (allowed: {v})"
        for k, v in RFC3649.items()
        if block["hstcp"][k] != v
    ]
    if block["tcp"]["pacing"]:
        found.append(f"config key {study}.tcp.pacing: true is ns-2 only; allowed on ns3: false")
    if block["trace_level"] == "events":
        found.append(
            f"config key {study}.trace_level: events is ns-2 only; allowed on ns3: counters, none"
        )
    pkt = block["packet_bytes"]
    for name in block["grid"]["scenario"]:
        bdp = run_params.bdp_pkts(block["scenarios"][name], pkt)
        for frac in block["grid"]["buffer_frac"]:
            for queue in block["grid"]["queue"]:
                if waiting(queue, run_params.buffer_pkts(frac, bdp)) < 2:
                    found.append(
                        f"config key {study}.grid.buffer_frac: {frac} of scenario {name} leaves "
                        f"fewer than 2 waiting packets under {queue}; the ns3 backend needs 2"
                    )
    return found
