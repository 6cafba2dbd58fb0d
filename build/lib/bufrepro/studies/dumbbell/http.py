"""The dumbbell's HTTP reading: PackMimeHTTP over FullTcp, its template and parser variables."""

from __future__ import annotations

from typing import Any

from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block

APPLICATION = "HTTP"
# The files PackMimeHTTP writes beside the trace (set-outfile, set-samples-outfile): one line
# per completed web object, one per request. The HTTP parser reads both at the trace's end.
OBJECTS_FILE = "http_objects.log"
REQUESTS_FILE = "http_requests.log"
# The parsers of the HTTP reading's runs: of the text trace (trace_level full) and of the
# patched ns-2's tally stream (trace_level tally; the FTP reading keeps dumbbell/dumbbell*.awk).
PARSER = "dumbbell/http.awk"
TALLY_PARSER = "dumbbell/http_tally.awk"
# The parser variable WiredTally counts the responses' packets with, beside tally.PARAMS.
TALLY_PARAMS = ("servers",)
# PackMimeHTTP's set-TCP name of the FullTcp variant matching each one-way sender (tcp.agent):
# it allocates Agent/TCP/FullTcp/<name>, and Agent/TCP/FullTcp itself for Reno.
FULLTCP = {"Sack1": "Sack", "Newreno": "Newreno", "Reno": "Reno"}
# The delay metrics compare() makes from each run's own metrics (delays.py; no parser prints them):
# over all packets (TCP data and CBR), and a round trip (data one way, an ACK back).
DERIVED_DELAYS = ("delay_all_ms_mean", "delay_rtt_ms_mean")
# The client node of every PackMime pair (the TCP sink of the FTP reading).
CLIENT_NODE = 6


def is_http(block: Block) -> bool:
    """True when the block reads the traffic as HTTP web objects."""
    return bool(block["tcp"]["application"] == APPLICATION)


def rate(block: Block, point: RunPoint) -> float:
    """PackMime's rate_: new connections per second (rate_per_mbps x the bottleneck's Mb/s)."""
    return round(float(block["http"]["rate_per_mbps"]) * float(point.get("bottleneck_mbps")), 6)


def template_vars(block: Block, point: RunPoint) -> dict[str, Any]:
    """The HTTP block's template variables (tcl/dumbbell/http.tcl.j2)."""
    tcp = FULLTCP[block["tcp"]["agent"]]
    return {
        "http_tcp": tcp,
        "http_tcp_suffix": "" if tcp == "Reno" else f"/{tcp}",
        "http_rate": rate(block, point),
        "http_1_1": block["http"]["version"] == "1.1",
        "http_objects_file": OBJECTS_FILE,
        "http_requests_file": REQUESTS_FILE,
    }


def parse_vars(servers: list[int]) -> dict[str, Any]:
    """The HTTP parser's own variables: PackMime's two logs, the server and client nodes."""
    return {
        "objects_file": OBJECTS_FILE,
        "requests_file": REQUESTS_FILE,
        "servers": ",".join(str(n) for n in servers),
        "client": CLIENT_NODE,
    }
