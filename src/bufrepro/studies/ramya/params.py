"""The ramya study's grid of sweeps, config checks, template variables and parser variables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bufrepro.backends.fingerprint import fingerprint
from bufrepro.kit import sweeps
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block
from bufrepro.kit.transit import ACK_BYTES, Hop, horizon, link_bounds

NAME = "ramya"
KEYS = ("setup", "tcp", "bottleneck_mbps", "rwnd_bytes", "delay_scale", "buffer")
# Run folders: <setup>/<tcp>/bw<B2>/rwnd<bytes>/d<scale>/buf<frames>/seed<N>.
PATH_LABELS: Mapping[str, str] = {
    "setup": "",
    "tcp": "",
    "bottleneck_mbps": "bw",
    "rwnd_bytes": "rwnd",
    "delay_scale": "d",
    "buffer": "buf",
}
# A reading of the setup: everything but the swept buffer.
READING = ("tcp", "bottleneck_mbps", "rwnd_bytes", "delay_scale")
# Node numbers of the scenario: R1 -> R2 is the swept buffer.
R1, R2 = 1, 2
# The trace the scenario streams, and the files it writes beside it (rtt.tr: the TCP agent's RTT
# samples, ping.tr: the ping log, queue.tr: QueueMonitor samples, kept for the queue series).
STREAM = "out.tr"
RTT_FILE, PING_FILE, QUEUE_FILE = "rtt.tr", "ping.tr", "queue.tr"
# The packet headers the scenario uses (ns-2's PacketHeader/* names; Common is always kept):
# IP and TCP (the agents, the trace), Flags (TCP), Ping (the ping agents' timestamps and
# sequence numbers). Declaring only these gives byte-identical output.
PACKET_HEADERS = ("IP", "TCP", "Flags", "Ping")
UNSTATED = (
    "grid",
    "claims.step_frac",
    "claims.tput_frac",
    "claims.power_frac",
    "claims.drop_frac",
    "readings.table1.tcp",
    "readings.table1.rwnd_bytes",
    "readings.table5.bottleneck_mbps",
    "readings.table5.tcp",
    "readings.table1.delay_scale",
    "readings.table5.delay_scale",
    "setups.table1.duration_s",
    "setups.table1.warmup_s",
    "setups.table5.warmup_s",
    "setups.latency.duration_s",
    "setups.latency.warmup_s",
    "topology.ping_bw_mbps",
    "topology.ping_delay_ms",
    "topology.other_queue_pkts",
    "topology.buffer_counts",
    "tcp.header_bytes",
    "tcp.initial_window_pkts",
    "tcp.initial_rto_s",
    "tcp.min_rto_s",
    "tcp.max_rto_s",
    "tcp.tick_s",
    "tcp.start_s",
    "tcp.start_jitter_s",
    "ping.packet_bytes",
    "ping.start_s",
)


# --- grid -------------------------------------------------------------------------------------


def points(block: Block) -> list[tuple[Any, ...]]:
    """The union of the sweeps' cross products, in config order, each point once."""
    return sweeps.points(block, KEYS)


def _setup_text(name: str, setup: Mapping[str, Any]) -> str:
    ping = "with ping" if setup["ping"] else "no ping"
    return (
        f"{name}: {setup['duration_s']:g} s, measured over [{setup['warmup_s']:g}, "
        f"{setup['duration_s']:g}] s, {ping}"
    )


def grid_text(block: Block) -> dict[str, list[Any]]:
    """The setups and each sweep as the report lists them."""
    out: dict[str, list[Any]] = {"setups": [_setup_text(n, s) for n, s in block["setups"].items()]}
    for sweep in block["grid"]:
        out[f"sweep {sweep['name']}"] = [
            "setup " + "/".join(sweep["setup"]),
            "tcp " + "/".join(sweep["tcp"]),
            "B2 " + "/".join(f"{v:g}" for v in sweep["bottleneck_mbps"]) + " Mb/s",
            "rwnd " + "/".join(str(v) for v in sweep["rwnd_bytes"]) + " B",
            "delays x" + "/".join(f"{v:g}" for v in sweep["delay_scale"]),
            "buffer " + "/".join(str(v) for v in sweep["buffer"]) + " frames",
        ]
    return out


def check(block: Block) -> list[str]:
    """Config problems the schema cannot see."""
    problems = sweeps.problems(NAME, block)
    th = block["claims"]
    if th["optimum_low"] > th["optimum_high"]:
        problems.append(f"config key {NAME}.claims.optimum_low: must not exceed optimum_high")
    if th["drop_share_low"] > th["drop_share_high"]:
        problems.append(f"config key {NAME}.claims.drop_share_low: must not exceed drop_share_high")
    if block["topology"]["buffer_counts"] == "total":
        small = sorted({b for s in block["grid"] for b in s["buffer"] if b < 2})
        if small:
            problems.append(
                f"config key {NAME}.topology.buffer_counts: 'total' cannot read a buffer of "
                f"{small} frame(s): ns-2's DropTail limit_ 1 drops every packet, even on an idle "
                "link; allowed: 'waiting' (limit N + 1), or 'total' with every grid buffer >= 2"
            )
    return problems


# --- one run ----------------------------------------------------------------------------------


def queue_limit(block: Block, frames: int) -> int:
    """ns-2 queue limit for a buffer of `frames` (see topology.buffer_counts)."""
    return frames + 1 if block["topology"]["buffer_counts"] == "waiting" else frames


def params(block: Block, point: RunPoint) -> dict[str, Any]:
    """Template variables of one run, from the validated config block."""
    setup = block["setups"][point.get("setup")]
    topo = block["topology"]
    tcp = dict(block["tcp"], agent=point.get("tcp"))
    buffer = int(point.get("buffer"))
    rwnd = int(point.get("rwnd_bytes"))
    scale = float(point.get("delay_scale"))
    return {
        "study": point.owner,
        "seed": point.seed,
        "setup": point.get("setup"),
        "bottleneck_mbps": point.get("bottleneck_mbps"),
        "rwnd_bytes": rwnd,
        "window_pkts": max(1, rwnd // tcp["mss_bytes"]),
        "buffer": buffer,
        "queue_limit": queue_limit(block, buffer),
        "tcp": tcp,
        "ping": dict(block["ping"]),
        "ping_on": bool(setup["ping"]),
        "access_bw_mbps": topo["access_bw_mbps"],
        "delay_scale": scale,
        "access_delay_ms": round(topo["access_delay_ms"] * scale, 9),
        "bottleneck_delay_ms": round(topo["bottleneck_delay_ms"] * scale, 9),
        "ping_bw_mbps": topo["ping_bw_mbps"],
        "ping_delay_ms": round(topo["ping_delay_ms"] * scale, 9),
        "other_queue_pkts": topo["other_queue_pkts"],
        "queue_sample_s": block["monitor"]["queue_sample_s"],
        "duration_s": setup["duration_s"],
        # The header line the scenario writes first into each parsed stream (its parser checks it).
        "fingerprint": fingerprint(point, setup["duration_s"]),
        "trace_file": STREAM,
        "packet_headers": list(PACKET_HEADERS),
        "rtt_file": RTT_FILE,
        "ping_file": PING_FILE,
        "queue_file": QUEUE_FILE,
    }


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """AWK parameters: the setup's window, accounting limits, the R1 -> R2 link."""
    setup = block["setups"][point.get("setup")]
    return {
        "t0": setup["warmup_s"],
        "t1": setup["duration_s"],
        "t_end": setup["duration_s"],
        "fingerprint": fingerprint(point, setup["duration_s"]),
        "max_age": max_age(block, point),
        "hops": hops(block, point),
        "sizes": sizes(block),
        "link_from": R1,
        "link_to": R2,
        "link_bps": round(point.get("bottleneck_mbps") * 1e6),
    }


def max_age(block: Block, point: RunPoint) -> float:
    """How long before the trace's end a packet in flight may have been seen last: the longest
    transit (kit.transit) of the bulk transfer's path (client, R1, R2, server) with its segments
    and of the way back with ACKs and ping replies; with ping, of the ping's path (4, R1, R2,
    5). Not a fixed age. A queue other than the swept one holds at most what may be
    outstanding: the TCP window, the swept queue's packets (the way back) and two pings."""
    topo, tcp = block["topology"], block["tcp"]
    scale = float(point.get("delay_scale"))
    limit = queue_limit(block, int(point.get("buffer")))
    outstanding = max(1, int(point.get("rwnd_bytes")) // tcp["mss_bytes"]) + 2
    other = min(topo["other_queue_pkts"], outstanding)
    access = Hop(other, topo["access_bw_mbps"] * 1e6, topo["access_delay_ms"] * scale / 1e3)
    ping = Hop(other, topo["ping_bw_mbps"] * 1e6, topo["ping_delay_ms"] * scale / 1e3)
    neck_bps, neck_s = point.get("bottleneck_mbps") * 1e6, topo["bottleneck_delay_ms"] * scale / 1e3
    forward = Hop(limit, neck_bps, neck_s)
    back = Hop(min(topo["other_queue_pkts"], outstanding + limit), neck_bps, neck_s)
    segment = tcp["mss_bytes"] + tcp["header_bytes"]
    small = max(ACK_BYTES, block["ping"]["packet_bytes"])
    paths = [([access, forward, access], segment), ([access, back, access], small)]
    if block["setups"][point.get("setup")]["ping"]:
        paths += [([ping, forward, ping], segment), ([ping, back, ping], small)]
    return horizon(paths)


def hops(block: Block, point: RunPoint) -> str:
    """Each link's longest queue wait and wire time (kit.transit.link_bounds), as -v hops:
    client 0 - R1 1 - R2 2 - server 3, ping 4 - R1, R2 - ping 5 (segments one way, ACKs and
    ping replies the other; the ping links carry pings only)."""
    topo, tcp = block["topology"], block["tcp"]
    scale = float(point.get("delay_scale"))
    limit = queue_limit(block, int(point.get("buffer")))
    outstanding = max(1, int(point.get("rwnd_bytes")) // tcp["mss_bytes"]) + 2
    other = min(topo["other_queue_pkts"], outstanding)
    access = Hop(other, topo["access_bw_mbps"] * 1e6, topo["access_delay_ms"] * scale / 1e3)
    ping = Hop(other, topo["ping_bw_mbps"] * 1e6, topo["ping_delay_ms"] * scale / 1e3)
    neck_bps, neck_s = point.get("bottleneck_mbps") * 1e6, topo["bottleneck_delay_ms"] * scale / 1e3
    back = Hop(min(topo["other_queue_pkts"], outstanding + limit), neck_bps, neck_s)
    segment = max(tcp["mss_bytes"] + tcp["header_bytes"], block["ping"]["packet_bytes"])
    small = max(ACK_BYTES, block["ping"]["packet_bytes"])
    pings = block["ping"]["packet_bytes"]
    links = [
        (0, R1, access, segment),
        (R1, 0, access, small),
        (R1, R2, Hop(limit, neck_bps, neck_s), segment),
        (R2, R1, back, small),
        (R2, 3, access, segment),
        (3, R2, access, small),
        (4, R1, ping, pings),
        (R1, 4, ping, pings),
        (R2, 5, ping, pings),
        (5, R2, ping, pings),
    ]
    return link_bounds(links)


def sizes(block: Block) -> str:
    """The (type, size) pairs the scenario sends, as the parser's -v sizes: TCP segments (MSS +
    tcp.header_bytes) and the SYN (tcp.header_bytes; ns-2's syn_ is on), TCPSink's 40 B ACKs,
    the pings (request and reply alike)."""
    tcp = block["tcp"]
    pairs = [("tcp", tcp["mss_bytes"] + tcp["header_bytes"]), ("tcp", tcp["header_bytes"])]
    pairs.append(("ack", 40))
    pairs.append(("ping", block["ping"]["packet_bytes"]))
    return ",".join(f"{t}:{b}" for t, b in dict.fromkeys(pairs))
