"""The vegas study: Yew, Ong & Ahmad (seed 004), TCP Vegas with packet spacing over a handover.

CN - N1 - MAP - AR1/AR2 (802.11) - MN, the home agent beside N1: Tables II-III (standard vs
spaced Vegas, packet size 64-1024 B, 100 s), Table IV (spaced Vegas, RTT 40-150 ms, 500 s) and
Tables V-VI (BDP, X = buffer / BDP, buffer = X * BDP, computed from the config). ns-2.35 has no
IPv6/HMIPv6: its Mobile IPv4 over 802.11 with DSDV stands in (the notes table lists what
differs). Runs on the patched ns-2 (Study.ns = "patched": ns2/patches/0002, spacing_).
`python -m bufrepro.studies.vegas_steps` holds the study's own workflow steps.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from bufrepro.claims import Check, Claim, context, evaluate_claims
from bufrepro.studies import sweeps
from bufrepro.studies.base import Block, Study

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from bufrepro.grid import RunPoint

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
SERIES_FILE = "series.tsv"
# Published table -> (setup and reading, variant, published metric -> our metric).
METRICS = {
    "network_delay": "tcp_delay_ms_mean",
    "network_throughput": "tcp_throughput_kbps",
    "network_efficiency": "tcp_efficiency_pct",
    "delay_wrt_throughput": "delay_per_throughput",
}
TABLES: dict[str, tuple[str, str]] = {
    "Table II": ("packet", "standard"),
    "Table III": ("packet", "spacing"),
    "Table IV": ("rtt", "spacing"),
}
BDP_TABLES = ("Table V", "Table VI")
UNSTATED = (
    "readings.packet.rtt_ms",
    "readings.packet.start_s",
    "readings.rtt.start_s",
    "setups.packet.warmup_s",
    "setups.rtt.warmup_s",
    "setups.rtt.duration_s",
    "topology.other_queue_pkts",
    "wireless.data_rate_mbps",
    "wireless.basic_rate_mbps",
    "wireless.ifq_pkts",
    "wireless.home_gap_m",
    "mobility.fn1_to_fn2_mps",
    "tcp.window_pkts",
    "tcp.tick_s",
    "tcp.vegas_alpha",
    "tcp.vegas_beta",
    "tcp.vegas_gamma",
    "bdp.packet_bytes",
    "bdp.x_decimals",
)
REPORTED = (
    "tcp_delay_ms_mean",
    "tcp_delay_ms_p95",
    "tcp_throughput_kbps",
    "tcp_goodput_kbps",
    "tcp_efficiency_pct",
    "delay_per_throughput",
    "tcp_sent_pkts",
    "tcp_retransmitted_pkts",
    "tcp_drops_total",
    "tcp_drops_wired",
    "tcp_drops_wireless",
    "tcp_stranded_pkts",
    "tcp_loss_rate",
    "link_utilisation",
    "link_queue_avg_pkts",
)
REPORT_METRICS = (
    "tcp_delay_ms_mean",
    "tcp_throughput_kbps",
    "tcp_efficiency_pct",
    "delay_per_throughput",
    "tcp_drops_total",
    "tcp_stranded_pkts",
)
FIGURES = ("packet_size", "rtt", "buffer_ratio", "throughput_over_time")


# --- grid -------------------------------------------------------------------------------------


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


# --- one run ----------------------------------------------------------------------------------


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
        "study": point.study,
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
        "trace_file": "out.tr",
    }


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """AWK parameters: window, accounting limit, the flow's ends, the N1 -> MAP link, series."""
    setup = block["setups"][point.get("setup")]
    return {
        "t0": setup["warmup_s"],
        "t1": setup["duration_s"],
        "t_end": setup["duration_s"],
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
    }


# --- Tables V-VI, computed from the config ----------------------------------------------------


def round_half_up(value: float, decimals: int) -> float:
    """value rounded half away from zero at `decimals` (as printed tables round)."""
    q = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(float(value))).quantize(q, rounding=ROUND_HALF_UP))


def bdp_pkts(rtt_ms: float, bottleneck_mbps: float, packet_bytes: int) -> float:
    """Eq. 5: RTT x bottleneck bandwidth / packet size, in packets."""
    return rtt_ms / 1000 * bottleneck_mbps * 1e6 / (8 * packet_bytes)


def bdp_table(block: Block) -> pd.DataFrame:
    """Tables V-VI from the config: per RTT the BDP, X = buffer / BDP, whether the RTT is in the
    text's upper boundary, the mean X over those, X as given (mean X at x_decimals) and the
    buffer X * BDP, calculated and rounded."""
    import pandas as pd

    cfg = block["bdp"]
    bw = block["topology"]["bottleneck_mbps"]
    rows = []
    for rtt in cfg["rtt_ms"]:
        bdp = bdp_pkts(rtt, bw, cfg["packet_bytes"])
        rows.append(
            {
                "rtt_ms": rtt,
                "bdp_pkts": bdp,
                "buffer_pkts": cfg["buffer_pkts"],
                "ratio_X": cfg["buffer_pkts"] / bdp,
                "upper": rtt in cfg["upper_rtt_ms"],
            }
        )
    table = pd.DataFrame(rows)
    mean_x = float(table.loc[table["upper"], "ratio_X"].mean())
    given = round_half_up(mean_x, cfg["x_decimals"])
    table["mean_X"] = mean_x
    table["X_given"] = given
    table["buffer_calculated"] = given * table["bdp_pkts"]
    table["buffer_rounded"] = [round_half_up(v, 0) for v in table["buffer_calculated"]]
    return table


def bdp_report(block: Block, summary: pd.DataFrame) -> pd.DataFrame:
    """Tables V-VI as computed (bdp_table), with our Table IV cells beside them: the mean
    throughput of spaced Vegas in the diffed reading, whether our throughputs put the RTT in the
    upper group (upper_split), and the mean X over our upper group."""
    table = bdp_table(block)
    wide = cells(summary)
    reading = reading_of(block, "Table IV")
    sel = wide[(wide["setup"] == "rtt") & (wide["variant"] == "spacing")]
    sel = sel[(sel["packet_bytes"] == block["bdp"]["packet_bytes"])]
    for key in READING:
        sel = sel[sel[key] == reading[key]]
    tput = dict(zip(sel["rtt_ms"].astype(float), sel.get("tcp_throughput_kbps", []), strict=True))
    table["ours_throughput_kbps"] = [tput.get(float(r), float("nan")) for r in table["rtt_ms"]]
    known = [(float(r), t) for r, t in tput.items() if t == t]
    ours_upper = upper_split([r for r, _ in known], [t for _, t in known]) if known else set()
    table["ours_upper"] = [float(r) in ours_upper for r in table["rtt_ms"]]
    mine = table[table["ours_upper"]]
    table["ours_mean_X"] = float(mine["ratio_X"].mean()) if not mine.empty else float("nan")
    return table


def _decimals(value: float) -> int:
    text = repr(float(value))
    return len(text.split(".")[1]) if "." in text and not text.endswith(".0") else 0


def printed_decimals(published: pd.DataFrame) -> dict[tuple[str, str], int]:
    """Decimals each (table, metric) column is printed with: the most any of its values shows
    (a CSV number loses trailing zeros - 28.540 reads as 28.54)."""
    out: dict[tuple[str, str], int] = {}
    for (table, metric), g in published.groupby(["table", "metric"], sort=True):
        out[(str(table), str(metric))] = max(_decimals(float(v)) for v in g["value"])
    return out


def bdp_diff(block: Block, published: pd.DataFrame) -> pd.DataFrame:
    """Each printed value of Tables V-VI beside ours (computed, no CI): the difference, and
    whether ours printed at the paper's precision is the paper's number (matches_printed)."""
    import pandas as pd

    ours = {
        (float(r["rtt_ms"]), col): float(r[col])
        for _, r in bdp_table(block).iterrows()
        for col in ("bdp_pkts", "ratio_X", "mean_X", "buffer_calculated", "buffer_rounded")
    }
    pub = published[published["table"].isin(BDP_TABLES)]
    decimals = printed_decimals(pub)
    rows = []
    for _, r in pub.iterrows():
        rtt = float(r["rtt_ms"])
        metric = str(r["metric"])
        column = {"bdp": "bdp_pkts"}.get(metric, metric)
        value = ours.get((rtt, column), float("nan"))
        printed = float(r["value"])
        places = decimals[(str(r["table"]), metric)]
        shown = round_half_up(value, places) if value == value else value
        rows.append(
            {
                "seed_file": r["seed_file"],
                "table": r["table"],
                "block": "" if r["block"] != r["block"] else r["block"],
                "row": r["row"],
                "rtt_ms": rtt,
                "published_column": metric,
                "metric": f"computed_{column}",
                "published": printed,
                "ours_mean": value,
                "ours_n": 0,
                "abs_diff": value - printed,
                "rel_diff": (value - printed) / printed if printed else float("nan"),
                "in_ci": None,
                "has_counterpart": value == value,
                "matches_printed": bool(shown == printed),
            }
        )
    return pd.DataFrame(rows)


# --- Tables II-IV -----------------------------------------------------------------------------


def reading_of(block: Block, table: str) -> dict[str, Any]:
    """The grid values a published table is diffed against (setup, variant, reading)."""
    setup, variant = TABLES[table]
    reading = dict(block["readings"][setup])
    return {"setup": setup, "variant": variant, **reading}


def published_wide(published: pd.DataFrame, table: str, reading: Mapping[str, Any]) -> pd.DataFrame:
    """One published table, one row per printed row, one column per printed metric, with the
    grid keys: packet size and RTT as printed (Tables II-III: the reading's RTT), the rest from
    the reading."""
    sub = published[published["table"] == table].copy()
    sub["block"] = sub["block"].astype(object).fillna("")
    index = ["seed_file", "table", "block", "row", "packet_size_bytes"]
    if table == "Table IV":
        index.append("rtt_ms")
    wide = sub.pivot_table(index=index, columns="metric", values="value", aggfunc="first")
    wide = wide.reset_index().rename(columns={"packet_size_bytes": "packet_bytes"})
    wide.columns.name = None
    wide["packet_bytes"] = wide["packet_bytes"].astype(int)
    if table != "Table IV":
        wide["rtt_ms"] = reading.get("rtt_ms")
    for key in ("setup", "variant", *READING):
        wide[key] = reading[key]
    return wide


def table_diff(
    published: pd.DataFrame, summary: pd.DataFrame, table: str, reading: Mapping[str, Any]
) -> pd.DataFrame:
    """The diff of one of Tables II-IV against the cells of one reading."""
    from bufrepro.compare import diff_published

    wide = published_wide(published, table, reading)
    return diff_published(wide, summary, KEYS, METRICS)


def cells(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per grid cell, one column per metric mean."""
    from bufrepro.stats import wide_means

    return wide_means(summary, KEYS)


# --- claims -----------------------------------------------------------------------------------

DIFFED = "diffed readings"
ALL = "all readings"
# Claim-cell columns -> our metric.
CLAIM_COLUMNS = {
    "delay": "tcp_delay_ms_mean",
    "tput": "tcp_throughput_kbps",
    "eff": "tcp_efficiency_pct",
    "ratio": "delay_per_throughput",
}
PAPER_COLUMNS = {
    "delay": "network_delay",
    "tput": "network_throughput",
    "eff": "network_efficiency",
    "ratio": "delay_wrt_throughput",
}
# Cells that differ only in the variant (or only along one swept key).
CELL = ("setup", "packet_bytes", "rtt_ms", "buffer", "start_s")


def _spacing_better(column: str, lower_is_better: bool) -> Any:
    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in df.groupby(list(CELL), sort=True):
            by = {str(v): float(x) for v, x in zip(g["variant"], g[column], strict=True)}
            if "standard" not in by or "spacing" not in by:
                continue
            std, spc = by["standard"], by["spacing"]
            ok = spc < std if lower_is_better else spc > std
            out.append(
                Check(context(CELL, key), bool(ok), f"{column} {std:.3f} -> {spc:.3f} with spacing")
            )
        return out

    return check


def _along(
    df: pd.DataFrame, setup: str, along: str, minimum: int = 2
) -> list[tuple[tuple[Any, ...], pd.DataFrame]]:
    others = [k for k in ("variant", *CELL) if k != along]
    out = []
    for key, g in df[df["setup"] == setup].groupby(others, sort=True):
        g = g.sort_values(along)
        if g[along].nunique() >= minimum:
            out.append((key, g))
    return out


def _ctx(key: tuple[Any, ...], along: str) -> str:
    keys = [k for k in ("variant", *CELL) if k != along]
    return context(keys, key)


def _delay_rises(along: str, setup: str) -> Any:
    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in _along(df, setup, along):
            vals = list(zip(g[along], g["delay"], strict=True))
            for (a0, v0), (a1, v1) in itertools.pairwise(vals):
                out.append(
                    Check(
                        f"{_ctx(key, along)}, {along} {a0:g}->{a1:g}",
                        bool(v1 > v0),
                        f"delay {v0:.2f} -> {v1:.2f} ms",
                    )
                )
        return out

    return check


def _best_512(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _along(df, "packet", "packet_bytes", minimum=3):
        best = int(g.sort_values("ratio", kind="mergesort")["packet_bytes"].iloc[0])
        text = ", ".join(
            f"{int(p)}: {r:.3f}" for p, r in zip(g["packet_bytes"], g["ratio"], strict=True)
        )
        out.append(Check(_ctx(key, "packet_bytes"), best == 512, f"smallest at {best} B ({text})"))
    return out


def _ratio_falls_to_512(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _along(df, "packet", "packet_bytes"):
        vals = list(zip(g["packet_bytes"], g["ratio"], strict=True))
        for (p0, v0), (p1, v1) in itertools.pairwise(vals):
            want_fall = p1 <= 512
            ok = v1 < v0 if want_fall else v1 > v0
            out.append(
                Check(
                    f"{_ctx(key, 'packet_bytes')}, {int(p0)}->{int(p1)} B",
                    bool(ok),
                    f"delay/throughput {v0:.3f} -> {v1:.3f} ({'falls' if want_fall else 'rises'} "
                    "expected)",
                )
            )
    return out


def largest_gap(ordered: Sequence[float]) -> int:
    """Where to split sorted values in two: the index of the first value above their largest gap
    (values[:i] is the lower group, values[i:] the upper). Needs at least two values."""
    gaps = [b - a for a, b in itertools.pairwise(ordered)]
    return max(range(len(gaps)), key=lambda i: gaps[i]) + 1


def upper_split(rtts: Sequence[float], tputs: Sequence[float]) -> set[float]:
    """The RTTs of the higher of two throughput groups, split at the largest gap between the
    sorted throughputs (the paper's two "boundaries" read off the data)."""
    pairs = sorted(zip(tputs, rtts, strict=True))
    if len(pairs) < 2:
        return {r for _, r in pairs}
    return {r for _, r in pairs[largest_gap([t for t, _ in pairs]) :]}


def _upper_boundary(upper: Sequence[float]) -> Any:
    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in _along(df, "rtt", "rtt_ms"):
            hi = g[g["rtt_ms"].isin(upper)]
            lo = g[~g["rtt_ms"].isin(upper)]
            for (_, a), (_, b) in itertools.product(lo.iterrows(), hi.iterrows()):
                out.append(
                    Check(
                        f"{_ctx(key, 'rtt_ms')}, RTT {a['rtt_ms']:g} (lower) vs "
                        f"{b['rtt_ms']:g} (upper)",
                        bool(b["tput"] > a["tput"]),
                        f"throughput {a['tput']:.1f} vs {b['tput']:.1f} kb/s",
                    )
                )
        return out

    return check


def _x_0835(block: Block) -> Any:
    cfg = block["bdp"]
    bw = block["topology"]["bottleneck_mbps"]
    stated = {float(r) for r in cfg["upper_rtt_ms"]}

    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in _along(df, "rtt", "rtt_ms", minimum=3):
            upper = upper_split(list(g["rtt_ms"].astype(float)), list(g["tput"]))
            # BDP in packets of the cells' own size (eq. 5's "MTU" is the packet size).
            buffer, size = float(g["buffer"].iloc[0]), int(g["packet_bytes"].iloc[0])
            xs = [buffer / bdp_pkts(r, bw, size) for r in sorted(upper)]
            x = sum(xs) / len(xs)
            ctx = _ctx(key, "rtt_ms")
            found = ", ".join(f"{r:g}" for r in sorted(upper))
            out.append(
                Check(ctx, upper == stated, f"upper boundary (largest throughput gap) {found} ms")
            )
            out.append(
                Check(
                    ctx,
                    abs(x - 0.835) <= th["x_tolerance"],
                    f"X = {x:.3f} over it (paper 0.835, tolerance {th['x_tolerance']:g})",
                )
            )
        return out

    return check


def claims_for(block: Block) -> tuple[Claim, ...]:
    """The paper's claims as checks (some depend on the configured upper boundary)."""
    upper = [float(r) for r in block["bdp"]["upper_rtt_ms"]]
    both = (DIFFED, ALL)
    return (
        Claim(
            "spacing_lowers_delay",
            both,
            "Packet spacing lowers the network delay (abstract, conclusion).",
            "Per cell (setup, packet size, RTT, buffer, start): spacing's mean delay < standard's.",
            _spacing_better("delay", True),
        ),
        Claim(
            "spacing_raises_throughput",
            both,
            "Packet spacing raises the network throughput (abstract, conclusion).",
            "Per cell: spacing's mean throughput > standard's.",
            _spacing_better("tput", False),
        ),
        Claim(
            "spacing_raises_efficiency",
            both,
            "Packet spacing raises the network efficiency (abstract).",
            "Per cell: spacing's mean efficiency > standard's.",
            _spacing_better("eff", False),
        ),
        Claim(
            "delay_rises_with_packet_size",
            both,
            "As the packet size increases the network delay increases (Section VI.i).",
            "Per variant and reading of the packet setup: delay rises at each packet-size step.",
            _delay_rises("packet_bytes", "packet"),
        ),
        Claim(
            "ratio_falls_until_512",
            both,
            "Delay w.r.t. throughput falls as the packet size grows, up to 512 B; it rises at "
            "1024 B (Fig. 4).",
            "Per variant and reading: delay/throughput falls at each step up to 512 B and rises "
            "at each step above.",
            _ratio_falls_to_512,
        ),
        Claim(
            "best_packet_512",
            both,
            "512 B is the best packet size: the lowest delay w.r.t. throughput (Table III, "
            "conclusion).",
            "Per variant and reading: the smallest mean delay/throughput is at 512 B.",
            _best_512,
        ),
        Claim(
            "delay_rises_with_rtt",
            both,
            "As the RTT increases the network delay increases (Fig. 6).",
            "Per variant and reading of the RTT setup: delay rises at each RTT step.",
            _delay_rises("rtt_ms", "rtt"),
        ),
        Claim(
            "rtt_upper_boundary",
            both,
            "RTTs of 100-150 ms (the upper boundary) give higher throughput with spacing than "
            "40-90 ms (the lower boundary) (Section VI.ii).",
            "Per variant and reading of the RTT setup: every RTT in bdp.upper_rtt_ms has a higher "
            "mean throughput than every other RTT (one comparison per pair).",
            _upper_boundary(upper),
        ),
        Claim(
            "x_0835",
            both,
            "X = buffer / BDP over the upper boundary is 0.835 (Tables V-VI, conclusion).",
            "Per variant and reading of the RTT setup: split the RTTs in two at the largest gap "
            "between their sorted mean throughputs; the upper group is the text's upper boundary, "
            "and its mean buffer / BDP is within x_tolerance of 0.835.",
            _x_0835(block),
        ),
    )


def _in_reading(df: pd.DataFrame, block: Block) -> pd.DataFrame:
    """Rows of the diffed readings (packet: its RTT, buffer, start; rtt: its buffer, start)."""
    keep = df["setup"] == "__none__"
    for setup, reading in block["readings"].items():
        part = df["setup"] == setup
        for key in ("rtt_ms", *READING):
            if key in reading:
                part &= df[key] == reading[key]
        keep |= part
    out: pd.DataFrame = df[keep]
    return out


def our_claim_cells(block: Block, summary: pd.DataFrame) -> pd.DataFrame:
    """Our cell means per scope with the columns the checks read (delay, tput, eff, ratio)."""
    import pandas as pd

    wide = cells(summary)
    for col, metric in CLAIM_COLUMNS.items():
        wide[col] = wide[metric] if metric in wide else float("nan")
    base = wide[[*KEYS, *CLAIM_COLUMNS]]
    return pd.concat(
        [_in_reading(base, block).assign(scope=DIFFED), base.assign(scope=ALL)],
        ignore_index=True,
    )


def paper_claim_cells(block: Block, published: pd.DataFrame) -> pd.DataFrame:
    """Tables II-IV as cells with the claim columns, in both scopes."""
    import pandas as pd

    parts = []
    for table in TABLES:
        wide = published_wide(published, table, reading_of(block, table))
        for col, metric in PAPER_COLUMNS.items():
            wide[col] = wide[metric]
        parts.append(wide[[*KEYS, *PAPER_COLUMNS]])
    paper = pd.concat(parts, ignore_index=True)
    return pd.concat([paper.assign(scope=DIFFED), paper.assign(scope=ALL)], ignore_index=True)


def compare(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The diff of Tables II-IV (against their readings) and V-VI (computed), and the claims."""
    import pandas as pd

    sim = pd.concat(
        [table_diff(published, summary, t, reading_of(block, t)) for t in TABLES],
        ignore_index=True,
    )
    diff = pd.concat([sim, bdp_diff(block, published)], ignore_index=True)
    claims = evaluate_claims(
        our_claim_cells(block, summary),
        paper_claim_cells(block, published),
        claims_for(block),
        dict(block["claims"]),
        scope_key="scope",
        seed_files={DIFFED: SEED_FILE, ALL: SEED_FILE},
    )
    return diff, claims


# --- figures ----------------------------------------------------------------------------------


def draw(summary: pd.DataFrame, published: pd.DataFrame) -> dict[str, Figure]:
    """The figures that need only the summary and the published table."""
    from bufrepro.studies import vegas_plots

    return vegas_plots.draw(summary, published)


STUDY = Study(
    name=NAME,
    title="Yew, Ong & Ahmad: TCP Vegas with packet spacing over a handover (004; HMIPv6 -> "
    "ns-2 Mobile IPv4, patched ns-2)",
    seed_files=(SEED_FILE,),
    template="vegas.tcl.j2",
    grid_keys=KEYS,
    path_labels={
        "setup": "",
        "variant": "",
        "packet_bytes": "pkt",
        "rtt_ms": "rtt",
        "buffer": "buf",
        "start_s": "start",
    },
    unstated=UNSTATED,
    reported=REPORTED,
    report_metrics=REPORT_METRICS,
    figures=FIGURES,
    params=params,
    parse_args=parse_args,
    compare=compare,
    draw=draw,
    ns="patched",
    own_rules=frozenset({"parse_trace", "compare_published"}),
    check=check,
    report_tables=("notes", "bdp"),
    points=points,
    grid_text=grid_text,
)
