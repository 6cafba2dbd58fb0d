"""One hstcp run from the config: BDP and buffer, flows, template and parser variables."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from bufrepro.backends.fingerprint import fingerprint
from bufrepro.kit import grid
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block

KEYS = ("scenario", "queue", "buffer_frac")
SEED_FILE = "003_fffbe5369a667c8f.txt"
TEMPLATE = "hstcp/hstcp.tcl.j2"
PARSER = "hstcp/hstcp.awk"
# The file the template writes the bottleneck's stream to (a named pipe while ns runs).
STREAM = "bottleneck.fifo"
TIMESERIES = "timeseries.tsv"
TCP_HEADER_BYTES = 40
# Every hstcp run uses the patched ns-2 (ns2/patches): its spacing_ is tcp.pacing; with spacing_ 0
# it is stock ns-2's TCP, and its 64-bit queue-monitor counters do not wrap.
BACKEND_OPTIONS: Mapping[str, str] = MappingProxyType({"build": "patched"})
# Bottleneck nodes: the template creates R1 and R2 first.
R1, R2 = 0, 1


def bdp_pkts(scenario: Mapping[str, Any], packet_bytes: int) -> int:
    """BDP of the R1-R2 link alone (capacity x 2 x its delay), in packets (the paper's axis)."""
    bits: float = scenario["bottleneck_mbps"] * 1e6 * 2 * scenario["bottleneck_delay_ms"] / 1000
    return max(1, round(bits / (8 * packet_bytes)))


def flows_bdp_pkts(scenario: Mapping[str, Any], packet_bytes: int) -> float:
    """BDP of the flows at their mean propagation RTT, in packets (the second BDP axis).

    s2's "fraction of 6250" is of the R1-R2 link's BDP alone (2 x 10 ms); its flows' mean RTT is
    90 ms, so 6250 packets are 22% of the flows' BDP. s1's 12500 are 83% of its flows' 15000.
    """
    mean_rtt_ms = sum(rtts_ms(scenario)) / int(scenario["n_flows"])
    return float(scenario["bottleneck_mbps"]) * 1e6 * mean_rtt_ms / 1000 / (8 * packet_bytes)


def axis_ratios(block: Block) -> dict[str, float]:
    """Per scenario: the R1-R2 BDP over the flows' BDP at their mean RTT (a fraction of the
    flows' BDP = the fraction of the R1-R2 BDP x this ratio; s1 0.83, s2 0.22)."""
    pkt = block["packet_bytes"]
    return {
        str(n): bdp_pkts(sc, pkt) / flows_bdp_pkts(sc, pkt) for n, sc in block["scenarios"].items()
    }


# The buffer fractions the paper's claims name (10 % and 20 % of the BDP). Every profile plans
# them like any grid cell, on both axes - of the R1-R2 BDP, and of the flows' BDP expressed on
# it (rounded to CLAIM_DIGITS) - so no claim reads a value between grid points.
CLAIM_FRACTIONS = (0.1, 0.2)
CLAIM_DIGITS = 4


def claim_fractions(block: Block, scenario: str) -> list[float]:
    """The R1-R2 fractions one scenario runs for the claims: CLAIM_FRACTIONS, then the same
    fractions of the flows' BDP (x / axis ratio)."""
    ratio = axis_ratios(block)[scenario]
    flows = [round(x / ratio, CLAIM_DIGITS) for x in CLAIM_FRACTIONS]
    return list(dict.fromkeys([*CLAIM_FRACTIONS, *flows]))


def points(block: Block) -> list[tuple[Any, ...]]:
    """The grid's points, then each (scenario, queue)'s claim fractions it lacks (unless
    claims.plan_points is false, as in a reading of the readings stages)."""
    base = grid.cross(block["grid"], KEYS)
    if not block.get("claims", {}).get("plan_points", True):
        return base
    have = {(s, q, round(float(f), CLAIM_DIGITS)) for s, q, f in base}
    extra = [
        (s, q, f)
        for s in block["grid"]["scenario"]
        for q in block["grid"]["queue"]
        for f in claim_fractions(block, str(s))
        if (s, q, round(f, CLAIM_DIGITS)) not in have
    ]
    return [*base, *extra]


def band_scenarios(block: Block) -> list[str]:
    """The readings band's scenarios: hstcp.band.scenario, or the grid's when it is not set."""
    return list(block["band"].get("scenario") or block["grid"]["scenario"])


def buffer_pkts(fraction: float, bdp: int) -> int:
    """round-half-up(fraction x BDP), at least 1 (as model.fixed_point.buffer_packets_for)."""
    return max(1, math.floor(fraction * bdp + 0.5))


def rtts_ms(scenario: Mapping[str, Any]) -> list[float]:
    """n propagation RTTs evenly spaced over [rtt_min_ms, rtt_max_ms] (as the model's)."""
    n, lo, hi = int(scenario["n_flows"]), scenario["rtt_min_ms"], scenario["rtt_max_ms"]
    if n == 1:
        return [float(lo)]
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def flows(block: Block, scenario: Mapping[str, Any], rtts: Sequence[float]) -> list[dict[str, Any]]:
    """One flow per RTT (fid in RTT order): its source access delay gives it that RTT.

    RTT = 2 (access + bottleneck + sink access delay); transmission times (microseconds) are
    left out, as in the paper's RTTs.
    """
    sink = block["topology"]["sink_delay_ms"]
    out = []
    for fid, rtt in enumerate(sorted(rtts)):
        access = rtt / 2 - scenario["bottleneck_delay_ms"] - sink
        out.append({"fid": fid, "rtt_ms": round(rtt, 9), "access_delay_ms": round(access, 9)})
    return out


def common(block: Block) -> dict[str, Any]:
    """Template variables every run shares: packets, TCP and HSTCP, RED, sampling, files."""
    red = block["red"]
    pkt = block["packet_bytes"]
    return {
        "study": "hstcp",
        "packet_bytes": pkt,
        "tcp_payload_bytes": pkt - TCP_HEADER_BYTES,
        "tcp": dict(block["tcp"]),
        "hstcp": dict(block["hstcp"]),
        "start_s": block["tcp"]["start_s"],
        "start_jitter_s": block["tcp"]["start_jitter_s"],
        "pacing": 1 if block["tcp"]["pacing"] else 0,
        "sink_delay_ms": block["topology"]["sink_delay_ms"],
        "access_queue_pkts": block["topology"]["access_queue_pkts"],
        "red": dict(red),
        "red_linterm": round(1.0 / red["max_p"], 6),
        "red_adaptive": 1 if red["adaptive"] else 0,
        "red_gentle": "true" if red["gentle"] else "false",
        "sample_s": block["measure"]["sample_s"],
        "trace_file": STREAM,
        "trace_level": block["trace_level"],
        "timeseries_file": TIMESERIES,
    }


def _whole(x: float) -> float | int:
    """A whole number as an int (10000, not 10000.0): one capacity, one scenario text, whether
    the access ratio came as 10 or as 10.0 (the band's), so that twin runs are found."""
    return int(x) if float(x).is_integer() else x


def link(
    block: Block, mbps: float, delay_ms: float, queue: str, buf: int, bdp: int
) -> dict[str, Any]:
    """Template variables of the bottleneck: capacity, delay, queue, buffer, RED thresholds."""
    red = block["red"]
    base = min(bdp, buf)
    min_th = max(1.0, red["min_th_frac"] * base)
    max_th = max(min_th + 1.0, red["max_th_frac"] * base)
    return {
        "bottleneck_mbps": mbps,
        "bottleneck_delay_ms": delay_ms,
        "capacity_bps": round(mbps * 1e6),
        "access_mbps": _whole(mbps * block["topology"]["access_ratio"]),
        # R2 -> sink carries every flow: never slower than R1-R2, whatever the access ratio.
        "sink_mbps": _whole(mbps * max(block["topology"]["access_ratio"], 1)),
        "queue": queue,
        "buffer_pkts": buf,
        "bdp_pkts": bdp,
        "red_min_th": round(min_th, 6),
        "red_max_th": round(max_th, 6),
    }


def params(block: Block, point: RunPoint) -> dict[str, Any]:
    """Template variables of one grid run (scenario x queue x buffer fraction x seed)."""
    sc = block["scenarios"][point.get("scenario")]
    bdp = bdp_pkts(sc, block["packet_bytes"])
    frac = point.get("buffer_frac")
    buf = buffer_pkts(frac, bdp)
    return {
        **common(block),
        **link(
            block, sc["bottleneck_mbps"], sc["bottleneck_delay_ms"], point.get("queue"), buf, bdp
        ),
        "seed": point.seed,
        "scenario": point.get("scenario"),
        "buffer_frac": frac,
        "flows": flows(block, sc, rtts_ms(sc)),
        "warmup_s": block["measure"]["warmup_s"],
        "duration_s": block["measure"]["duration_s"],
        # The header line the scenario writes first into its stream (the parser checks it).
        "fingerprint": fingerprint(point, block["measure"]["duration_s"]),
        "timeseries_s": 0,
    }


def awk_args(p: Mapping[str, Any]) -> dict[str, Any]:
    """awk/hstcp/hstcp.awk's -v variables from a run's template variables."""
    return {
        "t0": p["warmup_s"],
        "t1": p["duration_s"],
        "t_end": p["duration_s"],
        "from": R1,
        "to": R2,
        "bps": p["capacity_bps"],
        "pkt": p["packet_bytes"],
        "fingerprint": p["fingerprint"],
    }


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """awk/hstcp/hstcp.awk's -v variables of a grid run."""
    return awk_args(params(block, point))
