"""A link experiment's block read into numbers: rate, hops, BDP, window, run length, buffers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bufrepro.experiments.link.tables import CCS, Cc, backend_of
from bufrepro.kit import units
from bufrepro.kit.study import Block

# The window_ ns-2 gets when the user sets none: this many times (BDP + the largest buffer),
# and at least FLOOR_WINDOW packets, so that the window never caps a flow (ns-2's default is 20).
WINDOW_FACTOR = 10
FLOOR_WINDOW = 10000
# The run length when the block says auto: warm-up and measured time, each at least this many
# seconds or this many base RTTs.
WARMUP = (2.0, 100)
MEASURE = (10.0, 500)
# The searched buffers when the block says auto: from max(2, BDP / 50) to max(10, 2 BDP) packets.
LOW_BDP_FRACTION = 1 / 50
HIGH_BDP_MULTIPLE = 2.0
# The CBR flow's packets (bytes, as ns-2's CBR packetSize_ and ns-3's IP packet).
CBR_PACKET_BYTES = 1000
# Queues other than the swept one never drop: this many packets each (ns-2 limit_).
OTHER_QUEUE_PKTS = 100000


@dataclass(frozen=True)
class Link:
    """The link's numbers, in base units (bit/s, s, bytes, packets)."""

    bps: float
    rtt_s: float
    loss: float
    access_s: float
    bottleneck_s: float
    access_bps: float
    mss: int
    cc_name: str
    cc: Cc
    flows: int
    packet_bytes: int
    bdp_pkts: float
    buffer_lo: int
    buffer_hi: int
    window_pkts: int
    window_auto: bool
    warmup_s: float
    duration_s: float
    cbr_bps: float
    web_rate: float
    backend: str
    initial_window_pkts: int
    start_jitter_s: float
    cbr_interval_s: float


def _auto_time(text: Any, where: str, floor: tuple[float, int], rtt: float) -> float:
    if str(text) == "auto":
        return max(floor[0], floor[1] * rtt)
    return units.seconds(str(text), where)


def read(block: Block, where: str) -> Link:
    """The block's numbers; UnitError naming the key for anything that cannot be read."""
    link, flows = block["link"], block["flows"]
    bps = units.rate_bps(str(link["rate"]), f"{where}.link.rate")
    rtt = units.seconds(str(link["rtt"]), f"{where}.link.rtt")
    loss = units.fraction(link["loss"], f"{where}.link.loss")
    one_way = rtt / 2
    access = one_way * float(link["access_share"])
    backend = backend_of(block)
    ccs = CCS[backend]
    cc_name = units.choice(str(flows["cc"]), ccs, f"{where}.flows.cc")
    cc = ccs[cc_name]
    mss = int(link["mss_bytes"])
    packet = mss + cc.header_bytes
    bdp = bps * rtt / 8 / packet
    buf = block["buffers"]
    lo = _buffer(
        buf["min"], f"{where}.buffers.min", packet, bdp, bps, max(2.0, bdp * LOW_BDP_FRACTION)
    )
    hi = _buffer(
        buf["max"], f"{where}.buffers.max", packet, bdp, bps, max(10.0, bdp * HIGH_BDP_MULTIPLE)
    )
    if hi <= lo:
        raise units.UnitError(f"{where}.buffers.max: {hi} packets is not above buffers.min ({lo})")
    window = flows["window"]
    auto = str(window) == "auto"
    warm = _auto_time(block["run"]["warmup"], f"{where}.run.warmup", WARMUP, rtt)
    measure = _auto_time(block["run"]["measure"], f"{where}.run.measure", MEASURE, rtt)
    cbr = str(flows["cbr"])
    cbr_bps = 0.0 if cbr in ("0", "none") else units.rate_bps(cbr, f"{where}.flows.cbr")
    return Link(
        bps=bps,
        rtt_s=rtt,
        loss=loss,
        access_s=access,
        bottleneck_s=one_way - 2 * access,
        access_bps=bps * float(link["access_rate_factor"]),
        mss=mss,
        cc_name=cc_name,
        cc=cc,
        flows=int(flows["count"]),
        packet_bytes=packet,
        bdp_pkts=bdp,
        buffer_lo=lo,
        buffer_hi=hi,
        window_pkts=max(FLOOR_WINDOW, WINDOW_FACTOR * math.ceil(bdp + hi)) if auto else int(window),
        window_auto=auto,
        warmup_s=warm,
        duration_s=warm + measure,
        cbr_bps=cbr_bps,
        web_rate=float(flows["web_rate"]),
        backend=backend,
        initial_window_pkts=int(flows["initial_window_pkts"]),
        start_jitter_s=units.seconds(
            str(flows["start_jitter"]), f"{where}.flows.start_jitter", True
        ),
        cbr_interval_s=CBR_PACKET_BYTES * 8 / cbr_bps if cbr_bps else 0.0,
    )


def _buffer(text: Any, where: str, packet: int, bdp: float, bps: float, auto: float) -> int:
    pkts = auto if str(text) == "auto" else units.buffer_pkts(str(text), where, packet, bdp, bps)
    return max(1, round(pkts))


def hops_text(link: Link) -> str:
    """The rule that splits the base RTT into hops, with this link's numbers."""
    a, b = link.access_s * 1000, link.bottleneck_s * 1000
    return (
        f"base RTT {link.rtt_s * 1000:g} ms = 2 x ({a:g} ms access + {b:g} ms bottleneck + "
        f"{a:g} ms access)"
    )
