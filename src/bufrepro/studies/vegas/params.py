"""The vegas study's grid, config checks, node layout and the template and parser variables."""

from __future__ import annotations

from typing import Any

from bufrepro.backends import tally
from bufrepro.backends.fingerprint import fingerprint
from bufrepro.kit import sweeps
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block

NAME = "vegas"
SEED_FILE = "004_3bee746e20d1e1b9.txt"
KEYS = ("setup", "variant", "packet_bytes", "rtt_ms", "buffer", "start_s")
# A reading of a setup: the cell values a published table does not print.
READING = ("buffer", "start_s")
# Node numbers fixed by the template's creation order (it checks them).
CN, N1, MAP, HA, AR1, AR2, MN = range(7)
TCP_FID = 1
# TCP/IP header bytes inside a Vegas packet's size (ns-2 Vegas sends packetSize_ bytes in all).
HEADER_BYTES = 40
# ns-2's default 802.11 radio (TwoRayGround, Pt_ 0.2818 W, RXThresh_ 3.652e-10 W, 1.5 m antennas)
# receives up to 250 m; the cells are laid out for it.
RANGE_M = 250.0
Y_M = 300.0
# The throughput series the parser writes into the run folder (kept for Figs. 7-8).
SERIES_FILE = "series.tsv"


def points(block: Block) -> list[tuple[Any, ...]]:
    """The union of the sweeps' cross products, in config order, each point once."""
    return sweeps.points(block, KEYS)


def grid_text(block: Block) -> dict[str, list[Any]]:
    """The setups and each sweep as the report lists them."""
    out: dict[str, list[Any]] = {
        "setups": [
            f"{n}: {s['duration_s']:g} s, measured over [{s['warmup_s']:g}, {s['duration_s']:g}] s"
            for n, s in block["setups"].items()
        ]
    }
    for sweep in block["grid"]:
        out[f"sweep {sweep['name']}"] = [
            "setup " + "/".join(sweep["setup"]),
            "Vegas " + "/".join(sweep["variant"]),
            "packet " + "/".join(str(v) for v in sweep["packet_bytes"]) + " B",
            "RTT " + "/".join(f"{v:g}" for v in sweep["rtt_ms"]) + " ms",
            "buffer " + "/".join(str(v) for v in sweep["buffer"]) + " packets",
            "transfer from " + "/".join(f"{v:g}" for v in sweep["start_s"]) + " s",
        ]
    return out


def bottleneck_delay_ms(block: Block, rtt_ms: float) -> float:
    """N1 - MAP one-way delay that makes the wired path's propagation round trip rtt_ms."""
    topo = block["topology"]
    return float(rtt_ms) / 2 - float(topo["cn_delay_ms"]) - float(topo["ar_delay_ms"])


def check(block: Block) -> list[str]:
    """Config problems the schema cannot see."""
    problems = sweeps.problems(NAME, block)
    topo = block["topology"]
    floor = 2 * (topo["cn_delay_ms"] + topo["ar_delay_ms"])
    for i, sweep in enumerate(block["grid"]):
        for rtt in sweep["rtt_ms"]:
            if bottleneck_delay_ms(block, rtt) <= 0:
                problems.append(
                    f"config key {NAME}.grid[{i}].rtt_ms: {rtt} leaves no bottleneck delay; "
                    f"allowed: > {floor:g} (2 x (topology.cn_delay_ms + topology.ar_delay_ms))"
                )
        for setup in sweep["setup"]:
            late = [s for s in sweep["start_s"] if s >= block["setups"][setup]["duration_s"]]
            if late:
                problems.append(
                    f"config key {NAME}.grid[{i}].start_s: {late} not before {NAME}.setups.{setup}"
                    f".duration_s ({block['setups'][setup]['duration_s']})"
                )
    if "rtt_ms" not in block["readings"]["packet"]:
        problems.append(f"config key {NAME}.readings.packet.rtt_ms: required (Tables II-III's RTT)")
    missing = [r for r in block["bdp"]["upper_rtt_ms"] if r not in block["bdp"]["rtt_ms"]]
    if missing:
        problems.append(
            f"config key {NAME}.bdp.upper_rtt_ms: {missing} not in {NAME}.bdp.rtt_ms "
            f"{block['bdp']['rtt_ms']}"
        )
    return problems


def geometry(block: Block) -> dict[str, float]:
    """x positions of the HA, AR1, AR2 and the MN's home on a line at y = Y_M, and the area.

    The HA's cell ends home_gap_m before AR1's begins; AR1's and AR2's cells overlap by
    cell_overlap_m; every cell has RANGE_M of radius.
    """
    wl = block["wireless"]
    ha = RANGE_M
    ar1 = ha + 2 * RANGE_M + wl["home_gap_m"]
    ar2 = ar1 + 2 * RANGE_M - wl["cell_overlap_m"]
    return {
        "ha_x_m": ha,
        "ar1_x_m": ar1,
        "ar2_x_m": ar2,
        "mn_home_x_m": ha + 10.0,
        "y_m": Y_M,
        "area_x_m": ar2 + RANGE_M,
        "area_y_m": 2 * Y_M,
    }


def params(block: Block, point: RunPoint) -> dict[str, Any]:
    """Template variables of one run, from the validated config block."""
    setup = block["setups"][point.get("setup")]
    variant = point.get("variant")
    return {
        "study": point.owner,
        "seed": point.seed,
        "setup": point.get("setup"),
        "variant": variant,
        "spacing": 1 if variant == "spacing" else 0,
        "packet_bytes": int(point.get("packet_bytes")),
        "rtt_ms": point.get("rtt_ms"),
        "bottleneck_delay_ms": round(bottleneck_delay_ms(block, point.get("rtt_ms")), 9),
        "buffer": int(point.get("buffer")),
        "tcp_start_s": point.get("start_s"),
        "tcp_fid": TCP_FID,
        "topology": dict(block["topology"]),
        "wireless": dict(block["wireless"]),
        "mobility": dict(block["mobility"]),
        "tcp": dict(block["tcp"]),
        **{k: round(v, 6) for k, v in geometry(block).items()},
        "duration_s": setup["duration_s"],
        # The header line the scenario writes first into each parsed stream (its parser checks it).
        "fingerprint": fingerprint(point, setup["duration_s"]),
        "trace_file": "out.tr",
        # full: everything traced as text; tally: the same traces counted in ns (MixedTally,
        # with tally_params); the benchmark renders "none" for its floor (Declaration.untraced): no
        # agent or wired-link traces, only trace-all, which ns-2's wireless nodes need.
        **tally.template_vars(block["trace_level"], parse_args(block, point), tally.MIXED_PARAMS),
    }


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """AWK parameters: window, accounting limit, the flow's ends, the N1 -> MAP link, series,
    the scenario's fingerprint, and the switch to the tally stream (trace_level tally)."""
    setup = block["setups"][point.get("setup")]
    return {
        "t0": setup["warmup_s"],
        "t1": setup["duration_s"],
        "t_end": setup["duration_s"],
        "fingerprint": fingerprint(point, setup["duration_s"]),
        "max_age": block["monitor"]["max_in_flight_age_s"],
        "src": CN,
        "dst": MN,
        "fid": TCP_FID,
        "hdr": HEADER_BYTES,
        "traced": f"{CN}-{N1},{N1}-{MAP}",
        "link_from": N1,
        "link_to": MAP,
        "link_bps": round(block["topology"]["bottleneck_mbps"] * 1e6),
        "bin_s": block["monitor"]["bin_s"],
        "series": SERIES_FILE,
        # the scenario's fingerprint: CN 0, N1 1, MAP 2, HA 3, AR1 4, AR2 5, MN 6 (tcl/vegas;
        # wireless nodes 3-6), its wired links and the bottleneck's delay (s)
        "n_nodes": 7,
        "links": "0-1,3-1,1-2,2-4,2-5",
        "link_delay": round(bottleneck_delay_ms(block, point.get("rtt_ms")), 9) / 1000,
        **tally.parser_vars(block["trace_level"]),
    }
