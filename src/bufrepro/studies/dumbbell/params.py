"""One dumbbell run: its template variables, its parser variables and the config checks."""

from __future__ import annotations

from typing import Any

from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block

# The ns-2 sink agent that pairs with each one-way TCP sender.
SINKS: dict[str, str] = {"Sack1": "TCPSink/Sack1", "Newreno": "TCPSink", "Reno": "TCPSink"}
CBR_FID = 9
# The trace file the scenario writes (the stream the parser reads).
TRACE_FILE = "out.tr"
# The bottleneck link 4->5, where the buffer is swept.
LINK_FROM = 4
LINK_TO = 5


def params(block: Block, point: RunPoint) -> dict[str, Any]:
    """Template variables of one dumbbell run, from the validated config block."""
    buffer = int(point.get("buffer"))
    red = block["red"]
    min_th = max(1.0, red["min_th_frac"] * buffer)
    max_th = max(min_th + 1.0, red["max_th_frac"] * buffer)
    topo = block["topology"]
    return {
        "study": point.study,
        "seed": point.seed,
        "queue": point.get("queue"),
        "plr": point.get("plr"),
        "bottleneck_mbps": point.get("bottleneck_mbps"),
        "buffer": buffer,
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
        "access_bw_mbps": topo["access_bw_mbps"],
        "access_delay_ms": topo["access_delay_ms"],
        "bottleneck_delay_ms": topo["bottleneck_delay_ms"],
        "access_queue_pkts": topo["access_queue_pkts"],
        "reverse_queue_pkts": topo["reverse_queue_pkts"],
        "duration_s": block["measure"]["duration_s"],
        "trace_file": TRACE_FILE,
        # Everything traced; the benchmark renders "none" for ns alone (Study.untraced).
        "trace_level": "full",
    }


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """Parser variables: the measurement window, accounting limits, the 4->5 bottleneck."""
    measure = block["measure"]
    return {
        "t0": measure["warmup_s"],
        "t1": measure["duration_s"],
        "t_end": measure["duration_s"],
        "max_age": measure["max_in_flight_age_s"],
        "link_from": LINK_FROM,
        "link_to": LINK_TO,
        "link_bps": round(point.get("bottleneck_mbps") * 1e6),
    }


def config_problems(study: str, block: Block) -> list[str]:
    """Problems the schema cannot see: an empty measurement window, unordered RED thresholds."""
    problems: list[str] = []
    measure = block.get("measure", {})
    if measure and measure["warmup_s"] >= measure["duration_s"]:
        problems.append(
            f"config key {study}.measure.warmup_s: {measure['warmup_s']} must be below "
            f"{study}.measure.duration_s ({measure['duration_s']})"
        )
    red = block.get("red")
    if red and red["min_th_frac"] >= red["max_th_frac"]:
        problems.append(
            f"config key {study}.red.min_th_frac: must be below red.max_th_frac "
            f"({red['min_th_frac']} >= {red['max_th_frac']})"
        )
    return problems
