"""The link experiment's runs on each simulator: ns-2's template, ns-3's program, one parser."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bufrepro.backends.fingerprint import fingerprint
from bufrepro.experiments.link import ns3
from bufrepro.experiments.link.parsed import CBR_PACKET_BYTES, OTHER_QUEUE_PKTS, Setup
from bufrepro.kit import units
from bufrepro.kit.declaration import NS3_UNTRACED, Declaration
from bufrepro.kit.grid import RunPoint

# IP, TCP (the agents, the trace), Flags (TCP, RED), RTP (the UDP agent's sequence number).
PACKET_HEADERS = ("IP", "TCP", "Flags", "RTP")
# Routers 0 -> 1: the bottleneck; the trace names these nodes.
LINK_FROM, LINK_TO = 0, 1
PARSER = "link/link.awk"


def red_threshold(text: str, buffer: int, where: str) -> float:
    """A RED threshold in packets: '25%' of the buffer (at least 1), or '5pkt' packets."""
    raw = str(text).strip()
    if raw.endswith("%"):
        return max(1.0, units.fraction(raw, where, below_one=False) * buffer)
    value, unit = units.buffer_text(raw, where)
    if unit != "pkt":
        raise units.UnitError(
            f"{where}: {text!r}; allowed: a share of the buffer (25%) or packets (5pkt)"
        )
    return value


def red_thresholds(setup: Setup, point: RunPoint) -> tuple[float, float]:
    """RED's (min_th, max_th) in packets at the run's buffer (max_th at least min_th + 1)."""
    red, buffer = setup.block["red"], int(point.get("buffer"))
    min_th = red_threshold(red["min_th"], buffer, "red.min_th")
    return min_th, max(min_th + 1.0, red_threshold(red["max_th"], buffer, "red.max_th"))


class _Link(Declaration[Setup]):
    """What both simulators' runs share: the parser and its variables."""

    parser = PARSER

    def parse_args(self, setup: Setup, point: RunPoint) -> dict[str, Any]:
        """The measurement window, the bottleneck and its rate, the flows and the queue's limit."""
        link = setup.link
        buffer = int(point.get("buffer"))
        return {
            "t0": round(link.warmup_s, 6),
            "t1": round(link.duration_s, 6),
            "fingerprint": fingerprint(point, round(link.duration_s, 6)),
            "link_from": LINK_FROM,
            "link_to": LINK_TO,
            "link_bps": round(link.bps),
            "flows": link.flows,
            "mss": link.mss,
            "limit": buffer + 1,
            "epoch": round(link.rtt_s, 9),
            # ns-3's stream ends "# end LINES SUM" (checked); Debian's ns-2 writes "# end"
            **({"sealed": 1} if link.backend == "ns3" else {}),
        }


class Ns2(_Link):
    """tcl/link on Debian's ns-2 (the stock build)."""

    template = "link/link.tcl.j2"
    options = MappingProxyType({"build": "stock"})

    def params(self, setup: Setup, point: RunPoint) -> dict[str, Any]:
        """Template variables of one run: numbers and enums only."""
        block, link = setup.block, setup.link
        buffer = int(point.get("buffer"))
        queue = str(point.get("queue"))
        red = block["red"]
        min_th, max_th = red_thresholds(setup, point)
        name = point.owner
        return {
            "experiment": name,
            "seed": point.seed,
            "queue": queue,
            # ns-2's queue class bears the config's name (ns2.QUEUES, the backend's table).
            "queue_ns": queue,
            "buffer": buffer,
            # ns-2.35's DropTail holds limit_ - 1 waiting packets, RED limit_: both hold `buffer`.
            "queue_limit": buffer + 1 if queue == "DropTail" else buffer,
            "rate_bps": round(link.bps),
            "access_bps": round(link.access_bps),
            "rtt_ms": round(link.rtt_s * 1000, 6),
            "access_ms": round(link.access_s * 1000, 6),
            "bottleneck_ms": round(link.spread_bottleneck_s * 1000, 6),
            "access_s": round(link.access_s, 9),
            "bottleneck_s": round(link.spread_bottleneck_s, 9),
            "rtt_spread": link.rtt_spread,
            "flow_access_lo_s": round(link.flow_access_lo_s, 9),
            "flow_access_step_s": round(link.flow_access_step_s, 12),
            "other_access_s": round(link.other_access_s, 9),
            "reverse_queue_pkts": OTHER_QUEUE_PKTS,
            "loss": link.loss,
            "flows": link.flows,
            "cc_name": link.cc.label,
            "tcp_agent": link.cc.agent,
            "tcp_sink": link.cc.sink,
            "tcp_settings": sorted(link.cc.settings.items()),
            "linux_ca": link.cc.linux_ca,
            "mss_bytes": link.mss,
            "packet_bytes": link.packet_bytes,
            "window_pkts": link.window_pkts,
            "window_note": "auto: far above the BDP" if link.window_auto else "set by the user",
            "initial_window_pkts": link.initial_window_pkts,
            "start_jitter_s": link.start_jitter_s,
            "red_min_th": round(min_th, 6),
            "red_max_th": round(max_th, 6),
            "red_q_weight": float(red["q_weight"]),
            "red_linterm": round(1.0 / float(red["max_p"]), 6),
            "cbr_fid": link.flows + 1,
            "cbr_bytes": CBR_PACKET_BYTES,
            "cbr_interval_s": round(link.cbr_interval_s, 9),
            "web_rate": link.web_rate,
            "duration_s": round(link.duration_s, 6),
            "trace_file": self.stream,
            "fingerprint": fingerprint(point, round(link.duration_s, 6)),
            "packet_headers": list(PACKET_HEADERS),
        }


class Ns3(_Link):
    """ns3/link.cc (built into .ns3/link)."""

    untraced = NS3_UNTRACED
    template = ns3.PROGRAM

    def params(self, setup: Setup, point: RunPoint) -> dict[str, Any]:
        """The ns-3 program's arguments (link/ns3.py)."""
        block, link = setup.block, setup.link
        red = block["red"]
        red_args = (*red_thresholds(setup, point), float(red["q_weight"]), float(red["max_p"]))
        how = str(block["aqm"]["targets"])
        return ns3.arguments(point.owner, link, point, red_args, ns3.targets(link, how))


DECLARATIONS: Mapping[str, Declaration[Setup]] = MappingProxyType({"ns2": Ns2(), "ns3": Ns3()})
