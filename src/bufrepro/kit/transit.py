"""A path's longest transit: how long a packet may still be in flight when a run ends."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Added to every horizon: the trace prints times to 1 us, so a gap it shows may exceed the
# true one by up to 2 us per hop; 1 ms covers any path here with room to spare.
ROUNDING_S = 1e-3


@dataclass(frozen=True)
class Hop:
    """One link of a path: its queue's limit (packets), capacity (bit/s) and delay (s)."""

    queue_pkts: int
    bps: float
    delay_s: float


def hop_transit(hop: Hop, packet_bytes: int) -> float:
    """The longest time from a packet's arrival at the hop's queue to its receipt at the far
    end: a full queue ahead of it (limit packets, the one on the wire included) drained at the
    link's rate, then its own transmission and the link's delay."""
    tx = packet_bytes * 8 / hop.bps
    return (hop.queue_pkts + 1) * tx + hop.delay_s


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
        queue = (hop.queue_pkts + 1) * tx + ROUNDING_S
        wire = tx + hop.delay_s + ROUNDING_S
        out.append(f"{a}-{b}:{queue:.6f}:{wire:.6f}")
    return ",".join(out)
