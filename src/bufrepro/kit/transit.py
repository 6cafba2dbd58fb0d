"""A path's longest transit: how long a packet may still be in flight when a run ends."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Added to every horizon: the trace prints times to 1 us, so a gap it shows may exceed the
# true one by up to 2 us per hop; 1 ms covers any path here with room to spare.
ROUNDING_S = 1e-3


@dataclass(frozen=True)
class Hop:
    """One link of a path: its queue's limit (packets), capacity (bit/s) and delay (s); for a
    fair queue (FQ-CoDel) the flows it may hold apart and its quantum (bytes) (0: a FIFO)."""

    queue_pkts: int
    bps: float
    delay_s: float
    fq_flows: int = 0
    fq_quantum: int = 0


def queue_wait(hop: Hop, packet_bytes: int) -> float:
    """The longest time from a packet's arrival at the hop's queue to the end of its
    transmission (packet_bytes: the largest packet). A FIFO: a full queue ahead of it (limit
    packets, the one on the wire included), then its own. A fair queue (FQ-CoDel: deficit round
    robin, and a flow that emptied served first when it comes back) also serves later arrivals
    of other flows first: the packet's flow gets a turn at least every ceil(packet / quantum)
    rounds and sends at least one packet in it, so the packet is served within `limit` of them;
    in each round every other flow has at most two turns (its old one and, if it emptied, one
    as a new flow) of less than quantum + a packet's bytes. Those bytes come on top of the
    FIFO's wait."""
    tx = packet_bytes * 8 / hop.bps
    fifo = (hop.queue_pkts + 1) * tx
    if not hop.fq_flows:
        return fifo
    rounds = hop.queue_pkts * math.ceil(packet_bytes / hop.fq_quantum)
    others = rounds * (hop.fq_flows - 1) * 2 * (hop.fq_quantum + packet_bytes)
    return fifo + others * 8 / hop.bps


def hop_transit(hop: Hop, packet_bytes: int) -> float:
    """The longest time from a packet's arrival at the hop's queue to its receipt at the far
    end: its longest wait and transmission (queue_wait), then the link's delay."""
    return queue_wait(hop, packet_bytes) + hop.delay_s


def horizon(paths: Iterable[tuple[Sequence[Hop], int]]) -> float:
    """The longest transit over the paths, each with its largest packet (bytes) (s, rounded up
    to 1 us, plus ROUNDING_S): a packet last seen longer ago than this before the trace's end
    is not in flight but lost."""
    longest = max(sum(hop_transit(h, size) for h in path) for path, size in paths)
    return round(longest + ROUNDING_S + 5e-7, 6)


# The largest ACK: 40 B of TCP/IP headers and at most 40 B of TCP options (SACK blocks).
ACK_BYTES = 80


def link_bounds(links: Iterable[tuple[int, int, Hop, int]]) -> str:
    """The parser's -v hops: for each directed link (from, to, its hop, its largest packet) how
    long a packet may wait in its queue and how long it may be on its wire, as
    "from-to:queue_s:wire_s,..." (s, each plus ROUNDING_S). A packet still queued, or on a
    wire, at the trace's end was last seen within these of it; else it was lost."""
    out = []
    for a, b, hop, size in links:
        tx = size * 8 / hop.bps
        queue = queue_wait(hop, size) + ROUNDING_S
        wire = tx + hop.delay_s + ROUNDING_S
        out.append(f"{a}-{b}:{queue:.6f}:{wire:.6f}")
    return ",".join(out)
