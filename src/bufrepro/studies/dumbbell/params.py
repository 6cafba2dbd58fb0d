"""One dumbbell run: its template variables, its parser variables and the config checks."""

from __future__ import annotations

from typing import Any

from bufrepro.backends.fingerprint import fingerprint
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block
from bufrepro.kit.transit import ACK_BYTES, Hop, horizon, link_bounds
from bufrepro.studies.dumbbell import http

# The ns-2 sink agent that pairs with each one-way TCP sender.
SINKS: dict[str, str] = {"Sack1": "TCPSink/Sack1", "Newreno": "TCPSink", "Reno": "TCPSink"}
CBR_FID = 9
# ns-2's tcpip_base_hdr_size_ (the scenario leaves it at 40): a segment's trace size is MSS + 40,
# a SYN's and an ACK's 40.
TCP_HEADER_BYTES = 40
UDP_PACKET_BYTES = 1000
# The trace file the scenario writes (the stream the parser reads).
TRACE_FILE = "out.tr"
# The bottleneck link 4->5, where the buffer is swept.
LINK_FROM = 4
LINK_TO = 5
# The papers' nodes: TCP sources 0, 2, 3, CBR source 1, routers 4 and 5, TCP sink 6, CBR sink 7;
# further TCP sources (tcp.sources > 3) are nodes 8, 9, ...
FIRST_TCP_NODES = (0, 2, 3)
CBR_NODE = 1
# The packet headers the scenario uses (ns-2's PacketHeader/* names; Common is always kept):
# IP and TCP (the agents, the trace), Flags (TCP, RED's ECN bit), RTP (the UDP agent's sequence
# number, which the trace shows for cbr). Declaring only these gives byte-identical output.
PACKET_HEADERS = ("IP", "TCP", "Flags", "RTP")


def tcp_nodes(sources: int) -> list[int]:
    """The nodes of the TCP sources: 0, 2, 3, then 8, 9, ..."""
    extra = range(8, 8 + max(0, sources - len(FIRST_TCP_NODES)))
    return [*FIRST_TCP_NODES, *extra][:sources]


def tcp_fids(sources: int) -> list[int]:
    """The TCP flow ids: 0, 1, ..., skipping the CBR flow's id."""
    return [i if i < CBR_FID else i + 1 for i in range(sources)]


def queue_limit(queue: str, buffer: int, counts: str) -> int:
    """ns-2's limit_ for a buffer of `buffer` packets (topology.buffer_counts).

    ns-2.35's DropTail drops an arrival when the waiting queue would reach limit_ (it holds at
    most limit_ - 1 waiting packets); RED drops it when limit_ packets already wait (it holds
    limit_). "waiting" makes both hold `buffer` waiting packets; "ns2_limit" passes it as is.
    """
    if counts == "waiting" and queue == "DropTail":
        return buffer + 1
    return buffer


def params(block: Block, point: RunPoint) -> dict[str, Any]:
    """Template variables of one dumbbell run, from the validated config block."""
    buffer = int(point.get("buffer"))
    red = block["red"]
    min_th = max(1.0, red["min_th_frac"] * buffer)
    max_th = max(min_th + 1.0, red["max_th_frac"] * buffer)
    topo = block["topology"]
    tcp = block["tcp"]
    nodes = tcp_nodes(tcp["sources"])
    out = {
        "study": point.owner,
        "seed": point.seed,
        "queue": point.get("queue"),
        "plr": point.get("plr"),
        "bottleneck_mbps": point.get("bottleneck_mbps"),
        "buffer": buffer,
        "queue_limit": queue_limit(point.get("queue"), buffer, topo["buffer_counts"]),
        # Every node 0..7 exists whatever the sources, so that ns-2's node ids are these numbers.
        "node_ids": list(range(max(7, *nodes) + 1)),
        "access_nodes": sorted({*nodes, CBR_NODE}),
        "tcp_nodes": nodes,
        "tcp_flows": list(zip(nodes, tcp_fids(tcp["sources"]), strict=True)),
        "tcp_syn": "true" if tcp["syn"] else "false",
        "tcp": dict(block["tcp"]),
        "tcp_sink_agent": SINKS[block["tcp"]["agent"]],
        "tcp_start_s": block["tcp"]["start_s"],
        "tcp_start_jitter_s": block["tcp"]["start_jitter_s"],
        "cbr": dict(block["cbr"]),
        "cbr_fid": CBR_FID,
        "red": dict(red),
        "red_min_th": round(min_th, 6),
        "red_max_th": round(max_th, 6),
        "red_linterm": round(1.0 / red["max_p"], 6),
        "red_gentle": "true" if red["gentle"] else "false",
        "red_bytes": "true" if red["bytes_mode"] else "false",
        "access_bw_mbps": topo["access_bw_mbps"],
        "access_delay_ms": topo["access_delay_ms"],
        "bottleneck_delay_ms": topo["bottleneck_delay_ms"],
        "access_queue_pkts": topo["access_queue_pkts"],
        "reverse_queue_pkts": topo["reverse_queue_pkts"],
        "duration_s": block["measure"]["duration_s"],
        # The header line the scenario writes first into its trace (the parser checks it).
        "fingerprint": fingerprint(point, block["measure"]["duration_s"]),
        "trace_file": TRACE_FILE,
        "packet_headers": list(PACKET_HEADERS),
    }
    if http.is_http(block):
        out.update(http.template_vars(block, point))
    return out


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """Parser variables: the measurement window, accounting limits, the 4->5 bottleneck."""
    measure = block["measure"]
    out = {
        "t0": measure["warmup_s"],
        "t1": measure["duration_s"],
        "t_end": measure["duration_s"],
        "fingerprint": fingerprint(point, measure["duration_s"]),
        "max_age": max_age(block, point),
        "hops": hops(block, point),
        "sizes": sizes(block),
        "link_from": LINK_FROM,
        "link_to": LINK_TO,
        "link_bps": round(point.get("bottleneck_mbps") * 1e6),
    }
    if http.is_http(block):
        out.update(http.parse_vars(tcp_nodes(block["tcp"]["sources"])))
    return out


def max_age(block: Block, point: RunPoint, frame_bytes: int = 0) -> float:
    """How long before the trace's end a packet in flight may have been seen last: the longest
    transit (kit.transit) of the data path (source, 4, 5, sink) with its largest packet and of
    the ACK path back with the largest ACK, not a fixed age. A queue other than the swept one
    holds at most what the flows may have outstanding (their windows, and one CBR packet).
    frame_bytes: link-layer bytes every packet carries besides (ns-3's PPP header)."""
    topo, tcp = block["topology"], block["tcp"]
    outstanding = tcp["sources"] * tcp["max_rwnd_pkts"] + 2
    access_q = min(topo["access_queue_pkts"], outstanding)
    access = Hop(access_q, topo["access_bw_mbps"] * 1e6, topo["access_delay_ms"] / 1e3)
    neck_bps, neck_s = point.get("bottleneck_mbps") * 1e6, topo["bottleneck_delay_ms"] / 1e3
    limit = queue_limit(point.get("queue"), int(point.get("buffer")), topo["buffer_counts"])
    data = [access, Hop(limit, neck_bps, neck_s), access]
    back = Hop(min(topo["reverse_queue_pkts"], outstanding), neck_bps, neck_s)
    largest = max(tcp["mss_bytes"] + TCP_HEADER_BYTES, block["cbr"]["packet_bytes"])
    # under HTTP the clients' requests (and FullTcp's data-carrying ACKs) cross 5 -> 4 too
    back_size = largest if http.is_http(block) else ACK_BYTES
    largest, back_size = largest + frame_bytes, back_size + frame_bytes
    return horizon([(data, largest), ([access, back, access], back_size)])


def hops(
    block: Block, point: RunPoint, frame_bytes: int = 0, fair: tuple[int, int] = (0, 0)
) -> str:
    """Each link's longest queue wait and wire time (kit.transit.link_bounds), as -v hops
    (frame_bytes: link-layer bytes every packet carries besides, as in max_age; fair: a fair
    bottleneck queue's flows and quantum in bytes, kit.transit.Hop's; (0, 0): a FIFO)."""
    topo, tcp = block["topology"], block["tcp"]
    outstanding = tcp["sources"] * tcp["max_rwnd_pkts"] + 2
    access = Hop(
        min(topo["access_queue_pkts"], outstanding),
        topo["access_bw_mbps"] * 1e6,
        topo["access_delay_ms"] / 1e3,
    )
    neck_bps, neck_s = point.get("bottleneck_mbps") * 1e6, topo["bottleneck_delay_ms"] / 1e3
    limit = queue_limit(point.get("queue"), int(point.get("buffer")), topo["buffer_counts"])
    back = Hop(min(topo["reverse_queue_pkts"], outstanding), neck_bps, neck_s)
    data = max(tcp["mss_bytes"] + TCP_HEADER_BYTES, block["cbr"]["packet_bytes"])
    back_size = data if http.is_http(block) else ACK_BYTES  # HTTP: requests flow back too
    data, back_size = data + frame_bytes, back_size + frame_bytes
    links = [
        (LINK_FROM, LINK_TO, Hop(limit, neck_bps, neck_s, *fair), data),
        (LINK_TO, LINK_FROM, back, back_size),
    ]
    for node in sorted({*tcp_nodes(tcp["sources"]), CBR_NODE}):
        links += [(node, LINK_FROM, access, data), (LINK_FROM, node, access, back_size)]
    for node in (6, 7):
        links += [(LINK_TO, node, access, data), (node, LINK_TO, access, back_size)]
    return link_bounds(links)


def sizes(block: Block) -> str:
    """The (type, size) pairs the FTP scenario sends, as the parser's -v sizes: TCP segments
    (MSS + 40 B of headers) and their 40 B SYN, 40 B ACKs (not listed for SACK, whose ACKs
    carry blocks), the CBR packets; "" (not checked) under HTTP, whose FullTcp segments have
    every size."""
    if http.is_http(block):
        return ""
    mss = block["tcp"]["mss_bytes"]
    # with syn_ the first segment is a 40 B SYN; without, ns-2 sends segment 0 without headers
    first = TCP_HEADER_BYTES if block["tcp"]["syn"] else mss
    pairs = [("tcp", mss + TCP_HEADER_BYTES), ("tcp", first)]
    if block["tcp"]["agent"] != "Sack1":
        pairs.append(("ack", TCP_HEADER_BYTES))
    # ns-2's UDP agent sends a message larger than its packetSize_ (1000 B) as 1000 B pieces
    # and the rest
    cbr = block["cbr"]["packet_bytes"]
    pairs += [("cbr", min(cbr, UDP_PACKET_BYTES))] + (
        [("cbr", cbr % UDP_PACKET_BYTES)]
        if cbr > UDP_PACKET_BYTES and cbr % UDP_PACKET_BYTES
        else []
    )
    return ",".join(f"{t}:{b}" for t, b in dict.fromkeys(pairs))


def config_problems(study: str, block: Block) -> list[str]:
    """Problems the schema cannot see: an empty measurement window, unordered RED thresholds."""
    problems: list[str] = []
    measure = block.get("measure", {})
    if measure and measure["warmup_s"] >= measure["duration_s"]:
        problems.append(
            f"config key {study}.measure.warmup_s: {measure['warmup_s']} must be below "
            f"{study}.measure.duration_s ({measure['duration_s']})"
        )
    compare = block.get("compare")
    if compare and compare["delay_definition"] == "response" and not http.is_http(block):
        problems.append(
            f"config key {study}.compare.delay_definition: response needs "
            f"{study}.tcp.application HTTP (FTP has no web objects); allowed under FTP: "
            "auto, one_way_data, one_way_all, rtt"
        )
    red = block.get("red")
    if red and red["min_th_frac"] >= red["max_th_frac"]:
        problems.append(
            f"config key {study}.red.min_th_frac: must be below red.max_th_frac "
            f"({red['min_th_frac']} >= {red['max_th_frac']})"
        )
    return problems
