"""The dumbbell scenario on ns-3: the program's arguments (ns3/dumbbell.cc) and its checks."""

from __future__ import annotations

import re
from typing import Any

from bufrepro.backends import tally
from bufrepro.backends.fingerprint import run_digest
from bufrepro.backends.simulators.ns3 import QUEUES, queue_arguments, tcp_arguments
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block
from bufrepro.studies.dumbbell import params as run_params

PROGRAM = "dumbbell"
# Header bytes in a TCP data packet's trace size: IP 20 + TCP 20 (no options: timestamps off)
# + PPP's 2 (the stream's sizes are the bytes the link serialises).
TCP_HDR_BYTES = 42
# PPP's header: every packet's trace size is the IP packet's plus these (the link's bytes).
PPP_BYTES = 2
# ns-3's TCP options (ns-3.37, TcpSocketBase): the SYN and SYN-ACK carry window scaling (3 B,
# on by default) and SACK-permitted (2 B) when SACK is on, padded to 4 B; an ACK carries up to
# 4 SACK blocks (2 + 8 n B, padded). Timestamps are off (arguments: timestamps False).
WSCALE_BYTES, SACK_PERMITTED_BYTES, SACK_BLOCKS = 3, 2, 4
# The fair queue disc (fair_queue).
FQ_CODEL = "ns3::FqCoDelQueueDisc"
# ns-2's DropTail limit_ L holds L - 1 waiting packets (an access link's 1000: 999).
NS2_DROPTAIL_WAITING = -1


def waiting(queue: str, buffer: int, counts: str) -> int:
    """The packets the bottleneck holds waiting besides the one sent, exactly as the ns-2 run's
    queue does: ns-2's DropTail limit_ L holds L - 1, its RED limit_ L holds L (and an AQM on
    ns-3, having no ns-2 counterpart, holds the buffer)."""
    limit = run_params.queue_limit(queue, buffer, counts)
    return limit - 1 if queue == "DropTail" else limit


def tally_arguments(parse_args: dict[str, Any]) -> dict[str, Any]:
    """The tally's parameters as program arguments: each of the parser's variables the tally
    counts with (backends.tally.PARAMS), its text unchanged, under the camel-case name the
    program takes (t_end: --tEnd); the stream echoes them and the parser checks its copy."""
    return {
        re.sub(r"_(.)", lambda m: m.group(1).upper(), k): str(parse_args[k])
        for k in tally.PARAMS
        if k in parse_args
    }


def queue_attributes(block: Block, base: dict[str, Any], queue: str) -> dict[str, Any]:
    """The attributes the scenario gives its queue disc (each queue takes its own): RED's
    (red_attributes); every other queue's mean packet size is the TCP data packet (MSS + 40 B
    of headers), not ns-3.37's 1000 B default (PIE takes it)."""
    if queue == "RED":
        return red_attributes(base, block["red"])
    return {"MeanPktSize": block["tcp"]["mss_bytes"] + run_params.TCP_HEADER_BYTES}


def packet_ms(block: Block, point: RunPoint) -> float:
    """One TCP data packet's (MSS + 40 B) transmission time at the bottleneck, in ms: what a
    "-scaled" queue scales its delay targets to."""
    size = block["tcp"]["mss_bytes"] + run_params.TCP_HEADER_BYTES
    return float(size * 8 / (float(point.get("bottleneck_mbps")) * 1e3))


def red_attributes(base: dict[str, Any], red: Block) -> dict[str, Any]:
    """ns-3's RED attributes for the ns-2 run's RED: its thresholds, weight and gentleness,
    LInterm the inverse of max_p, its mean packet size."""
    return {
        "MinTh": base["red_min_th"],
        "MaxTh": base["red_max_th"],
        "QW": red["q_weight"],
        "LInterm": 1.0 / float(red["max_p"]),
        "Gentle": red["gentle"],
        "MeanPktSize": int(red["mean_pktsize_bytes"]),
    }


def arguments(block: Block, point: RunPoint, parse_args: dict[str, Any]) -> dict[str, Any]:
    """The program's arguments for one run (only validated numbers and enum words): at
    trace_level tally the program counts the metrics with the parser's variables
    `parse_args`, at full it writes the wired trace, at none nothing."""
    base = run_params.params(block, point)
    tcp, cbr, topo, ns3 = (block[k] for k in ("tcp", "cbr", "topology", "ns3"))
    queue = str(point.get("queue"))
    return {
        "study": point.owner,
        "run": run_digest(point),
        "end": block["measure"]["duration_s"],
        "seed": point.seed,
        **queue_arguments(queue, queue_attributes(block, base, queue), packet_ms(block, point)),
        "waiting": waiting(queue, int(point.get("buffer")), topo["buffer_counts"]),
        "plr": point.get("plr"),
        "bottleneckMbps": point.get("bottleneck_mbps"),
        "bottleneckDelayMs": topo["bottleneck_delay_ms"],
        "accessMbps": topo["access_bw_mbps"],
        "accessDelayMs": topo["access_delay_ms"],
        "accessWaiting": topo["access_queue_pkts"] + NS2_DROPTAIL_WAITING,
        "reverseWaiting": topo["reverse_queue_pkts"] + NS2_DROPTAIL_WAITING,
        "sources": tcp["sources"],
        **tcp_arguments(ns3["tcp_variant"], ns3["recovery"]),
        "sack": ns3["sack"],
        "timestamps": False,
        "mss": tcp["mss_bytes"],
        "iw": tcp["initial_window_pkts"],
        "delAck": ns3["delayed_ack_segments"],
        "rwndPkts": tcp["max_rwnd_pkts"],
        "initialRto": tcp["initial_rto_s"],
        "minRto": ns3["min_rto_s"],
        "tick": tcp["tick_s"],
        "startS": tcp["start_s"],
        "startJitter": tcp["start_jitter_s"],
        "cbrBytes": cbr["packet_bytes"],
        "cbrInterval": cbr["interval_s"],
        "cbrStart": cbr["start_s"],
        "duration": block["measure"]["duration_s"],
        "errorAt": ns3["error_model_at"],
        "trace": "none" if block["trace_level"] == "none" else run_params.TRACE_FILE,
        "traceLevel": "tally" if block["trace_level"] == "tally" else "full",
        **tally_arguments(parse_args),
    }


def _padded(option_bytes: int) -> int:
    """TCP options' bytes in the header: padded to a multiple of 4."""
    return -(-option_bytes // 4) * 4


def sizes(block: Block) -> str:
    """The (type, size) pairs the program sends, as the parser's -v sizes (the ns-2 run's own
    list does not fit: ns-3 adds PPP's 2 B to every packet, opens each connection with a real
    SYN, SYN-ACK and ACK carrying options, and sends a CBR packet whole): data segments
    (MSS + headers) and the SYN; ACKs (the handshake's last, the SYN-ACK, and with SACK those
    carrying 1 to 4 blocks); the CBR packets."""
    sack = bool(block["ns3"]["sack"])
    base = TCP_HDR_BYTES
    syn = base + _padded(WSCALE_BYTES + (SACK_PERMITTED_BYTES if sack else 0))
    acks = [base, syn] + (
        [base + _padded(2 + 8 * n) for n in range(1, SACK_BLOCKS + 1)] if sack else []
    )
    pairs = [("tcp", block["tcp"]["mss_bytes"] + base), ("tcp", syn)]
    pairs += [("ack", a) for a in acks] + [("cbr", block["cbr"]["packet_bytes"] + PPP_BYTES)]
    return ",".join(f"{t}:{b}" for t, b in dict.fromkeys(pairs))


def fair_queue(block: Block, point: RunPoint) -> tuple[int, int]:
    """The bottleneck's flows and quantum (bytes) when its disc is a fair queue (FQ-CoDel): it
    serves a packet after later arrivals of other flows, so the longest wait on 4 -> 5 the
    parser allows (-v hops) is not a FIFO's (kit.transit.queue_wait). Flows: the TCP sources
    and the CBR flow (or the disc's buckets, if fewer); (0, 0): a FIFO."""
    entry = QUEUES[str(point.get("queue"))]
    if entry.type != FQ_CODEL:
        return (0, 0)
    attrs = entry.attrs  # the scenario sets neither (queue_attributes)
    flows = min(int(attrs["Flows"]), block["tcp"]["sources"] + 1)
    return (flows, int(attrs["Quantum"]))


def parse_args(block: Block, point: RunPoint, args: dict[str, Any]) -> dict[str, Any]:
    """The study's parser variables for the program's stream (`args`: the text trace's):
    ns-3's sizes, the per-link horizons with PPP's bytes on every packet, and at trace_level
    tally the switch to the tally stream."""
    out = {k: v for k, v in args.items() if k != "tally"}
    out["tcp_hdr"] = TCP_HDR_BYTES
    out["sizes"] = sizes(block)
    out["hops"] = run_params.hops(block, point, PPP_BYTES, fair_queue(block, point))
    # a FIFO's: FQ-CoDel's bound (queue_wait) reaches past the runs' length on slow links with
    # large buffers (78 s at 0.1 Mb/s, 50 packets) and would void the checks at the end
    out["max_age"] = run_params.max_age(block, point, PPP_BYTES)
    # an error model at the bottleneck's tail drops a packet after it crossed 4 -> 5's wire
    # (ns-2's lossmodel, and ns-3's head, drop before the queue)
    tail = block["ns3"]["error_model_at"] == "tail"
    out["wire_drops"] = f"{run_params.LINK_FROM}-{run_params.LINK_TO}" if tail else ""
    out.update(tally.parser_vars(str(block["trace_level"])))
    return out


def problems(study: str, block: Block) -> list[str]:
    """What the ns-3 program cannot run: HTTP, fewer than 2 waiting packets, ns-2's bytes mode."""
    found = []
    if block["tcp"]["application"] != "FTP":
        found.append(
            f"config key {study}.tcp.application: {block['tcp']['application']} has no ns-3 "
            "scenario; allowed on the ns3 backend: FTP"
        )
    small = [
        b
        for q in block["grid"]["queue"]
        for b in block["grid"]["buffer"]
        if waiting(q, b, block["topology"]["buffer_counts"]) < 2
    ]
    if small:
        found.append(
            f"config key {study}.grid.buffer: {sorted(set(small))} leave fewer than 2 waiting "
            "packets; the ns3 backend needs at least 2 (its queue disc holds one fewer than the "
            "buffer, the device queue the last)"
        )
    if block["red"]["bytes_mode"]:
        found.append(f"config key {study}.red.bytes_mode: true is ns-2 only; allowed on ns3: false")
    return found
