"""A link experiment's block read into numbers: rate, hops, BDP, window, run length, buffers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bufrepro.experiments.link import guards
from bufrepro.experiments.link.tables import CCS, Cc, backend_of
from bufrepro.kit import units
from bufrepro.kit.study import Block

# The window_ ns-2 gets when the user sets none: this many times (BDP + the largest buffer),
# and at least FLOOR_WINDOW packets, so that the window never caps a flow (ns-2's default is 20).
WINDOW_FACTOR = 10
FLOOR_WINDOW = 10000
# The run length when the block says auto: warm-up and measured time, each at least this many
# seconds or this many base RTTs; the measured time also holds guards.MIN_EPOCHS loss cycles.
WARMUP = (2.0, 100)
MEASURE = (10.0, 500)
# The searched buffers when the block says auto: from max(2, BDP / 50) to max(10, 2 BDP) packets.
LOW_BDP_FRACTION = 1 / 50
HIGH_BDP_MULTIPLE = 2.0
# The RTT spread when the block says auto (a named assumption): the flows' base RTTs are spread
# evenly over base x [1 - s, 1 + s] (mean: the base RTT, so the BDP stays the base's). Equal RTTs
# let ns-2's flows lose packets in step (synchronise), which real traffic does not: paths to one
# bottleneck differ in RTT by tens of percent and more (Aikat et al. 2003 measured RTTs spread
# over an order of magnitude on one link). 0.3 (56-104 ms at 80 ms) is the spread with which the
# issue-41 measurement desynchronised 4-64 SACK flows; more spread is closer to real traffic.
# Both simulators take the same spread (ns-2's access hops, ns3/link.cc's --flowAccess*).
AUTO_RTT_SPREAD = 0.3
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
    rtt_spread: float
    # The measured time that holds guards.MIN_EPOCHS loss cycles of a flow; auto takes it.
    epochs_s: float
    measure_auto: bool
    spread_auto: bool
    # The first flow's source access delay, the step to the next flow's, and the bottleneck delay
    # with the share it gave up so that the shortest flow's access delay stays >= 0 (no spread:
    # access_s, 0, bottleneck_s).
    flow_access_lo_s: float
    flow_access_step_s: float
    spread_bottleneck_s: float
    # TCP ECN-capable and the AQMs marking (aqm.ecn; ns3 only: ns3.ECN_QUEUES).
    ecn: bool = False

    @property
    def other_access_s(self) -> float:
        """The access delay of sources other than the long-lived flows' (CBR, web): the
        bottleneck's share given up to the spread goes to them, so their RTT stays the base."""
        return self.access_s + self.bottleneck_s - self.spread_bottleneck_s

    def flow_rtts_s(self) -> list[float]:
        """Each long-lived flow's base RTT (the lab case: all the base RTT)."""
        step = self.flow_access_step_s * 2
        first = self.rtt_s - self.rtt_spread * self.rtt_s if self.flows > 1 else self.rtt_s
        return [first + i * step for i in range(self.flows)]


def _auto_time(
    text: Any, where: str, floor: tuple[float, int], rtt: float, epochs_s: float = 0.0
) -> float:
    if str(text) == "auto":
        return max(floor[0], floor[1] * rtt, epochs_s)
    return units.seconds(str(text), where)


def spread_hops(
    rtt: float, spread: float, flows: int, access: float, bottleneck: float
) -> tuple[float, float, float]:
    """(first flow's access delay, step per flow, bottleneck delay): flow i's base RTT is
    rtt x (1 - spread + 2 spread i / (n - 1)), evenly spaced, their mean the base RTT."""
    if flows < 2 or spread == 0:
        return access, 0.0, bottleneck
    shift = max(0.0, spread * rtt / 2 - access)
    lo = access + shift - spread * rtt / 2
    return lo, spread * rtt / (flows - 1), bottleneck - shift


def read(block: Block, where: str) -> Link:
    """The block's numbers; UnitError naming the key for anything that cannot be read."""
    link, flows = block["link"], block["flows"]
    bps = units.rate_bps(str(link["rate"]), f"{where}.link.rate")
    rtt = units.seconds(str(link["rtt"]), f"{where}.link.rtt")
    loss = units.fraction(link["loss"], f"{where}.link.loss", what="a loss rate")
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
    epochs_s = guards.measure_for_epochs(rtt, bdp, int(flows["count"]), loss)
    measure = _auto_time(block["run"]["measure"], f"{where}.run.measure", MEASURE, rtt, epochs_s)
    cbr = str(flows["cbr"])
    raw_spread = flows["rtt_spread"]
    spread_auto = str(raw_spread) == "auto"
    spread = AUTO_RTT_SPREAD if spread_auto else float(raw_spread)
    access_lo, access_step, spread_bn = spread_hops(
        rtt, spread, int(flows["count"]), access, one_way - 2 * access
    )
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
        rtt_spread=spread,
        epochs_s=epochs_s,
        measure_auto=str(block["run"]["measure"]) == "auto",
        spread_auto=spread_auto,
        flow_access_lo_s=access_lo,
        flow_access_step_s=access_step,
        spread_bottleneck_s=spread_bn,
        ecn=bool(block["aqm"]["ecn"]),
    )


@dataclass(frozen=True)
class Setup:
    """A link experiment's block with its link read once (read): what its runs are planned from."""

    block: Block
    link: Link


def _buffer(text: Any, where: str, packet: int, bdp: float, bps: float, auto: float) -> int:
    pkts = auto if str(text) == "auto" else units.buffer_pkts(str(text), where, packet, bdp, bps)
    return max(1, round(pkts))


def hops_text(link: Link) -> str:
    """The rule that splits the base RTT into hops, with this link's numbers."""
    a, b = link.access_s * 1000, link.bottleneck_s * 1000
    text = (
        f"base RTT {link.rtt_s * 1000:g} ms = 2 x ({a:g} ms access + {b:g} ms bottleneck + "
        f"{a:g} ms access)"
    )
    if link.flow_access_step_s == 0:
        return text
    rtts = link.flow_rtts_s()
    how = "auto" if link.spread_auto else "set"
    return (
        f"{text}; flows' RTTs spread {rtts[0] * 1000:g}-{rtts[-1] * 1000:g} ms "
        f"(rtt_spread {link.rtt_spread:g} {how}; bottleneck {link.spread_bottleneck_s * 1000:g} ms)"
    )
