"""The ramya study: Ramya & Geetha (seed 002), buffer size vs goodput and latency, OMNeT++ -> ns-2.

Client - R1 - R2 - server with the buffer at R1 in frames: Table 1 (goodput, RTT, drops; 1000 s),
Table 5 (throughput, RTT, drops, average queue; 180 s), the ping RTT of Section 4.1 (Fig. 2), the
queue over time (Fig. 3) and the advertised-window remedy of the conclusion. The readings the
paper leaves open (TCP variant, Table 1's window, Table 5's bottleneck) are swept side by side;
`readings` names the cell each published table is diffed against, and the notes table shows how
every reading fits. `python -m bufrepro.studies.ramya` holds the study's own workflow steps.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bufrepro.claims import Check, Claim, context, evaluate_claims
from bufrepro.studies import sweeps
from bufrepro.studies.base import Block, Study

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from bufrepro.grid import RunPoint

NAME = "ramya"
SEED_FILE = "002_5d42423dd5aa5b6d.txt"
KEYS = ("setup", "tcp", "bottleneck_mbps", "rwnd_bytes", "delay_scale", "buffer")
# A reading of the setup: everything but the swept buffer.
READING = ("tcp", "bottleneck_mbps", "rwnd_bytes", "delay_scale")
# Suffix of the claim scopes that check every reading of a table's setup, not only the diffed one.
ALL = ", all readings"
# Node numbers of the scenario: R1 -> R2 is the swept buffer.
R1, R2 = 1, 2
# Files the scenario writes beside out.tr (names fixed here and in rules/studies/ramya.smk).
RTT_FILE, PING_FILE, QUEUE_FILE = "rtt.tr", "ping.tr", "queue.tr"
# Published table -> (our setup, its config key under readings, published metric -> our metric).
TABLES: dict[str, tuple[str, dict[str, str]]] = {
    "Table 1": (
        "table1",
        {
            "goodput": "tcp_goodput_Bps",
            "avg_rtt": "tcp_rtt_s_mean",
            "packets_dropped": "tcp_drops_total",
        },
    ),
    "Table 5": (
        "table5",
        {
            "throughput": "tcp_throughput_kbps",
            "rtt": "tcp_rtt_s_mean",
            "packet_drops": "tcp_drops_total",
            "avg_queue_length": "link_queue_avg_pkts",
        },
    ),
}
# Run lengths the paper states for its tables (for the paper's own drop shares).
PAPER_DURATION_S = {"Table 1": 1000.0, "Table 5": 180.0}
UNSTATED = (
    "grid",
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
REPORTED = (
    "tcp_goodput_kbps",
    "tcp_throughput_kbps",
    "tcp_rtt_s_mean",
    "tcp_rtt_s_p95",
    "tcp_rtt_samples",
    "tcp_drops_total",
    "tcp_drops_queue",
    "tcp_sent_pkts",
    "tcp_loss_rate",
    "tcp_delay_ms_mean",
    "link_utilisation",
    "link_queue_avg_pkts",
    "link_queue_max_pkts",
    "qmon_queue_avg_pkts",
    "ping_rtt_ms_mean",
    "ping_rtt_ms_p95",
    "ping_loss_rate",
)
REPORT_METRICS = (
    "tcp_goodput_kbps",
    "tcp_throughput_kbps",
    "tcp_rtt_s_mean",
    "tcp_drops_total",
    "tcp_loss_rate",
    "link_queue_avg_pkts",
    "ping_rtt_ms_mean",
)
FIGURES = ("table1", "table5", "ping_rtt_vs_buffer", "queue_over_time", "rwnd_remedy")


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
        "study": point.study,
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
        "trace_file": "out.tr",
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
        "max_age": block["monitor"]["max_in_flight_age_s"],
        "link_from": R1,
        "link_to": R2,
        "link_bps": round(point.get("bottleneck_mbps") * 1e6),
    }


# --- tables -----------------------------------------------------------------------------------


def with_derived(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary plus tcp_goodput_Bps = tcp_goodput_kbps x 125 (bytes/s, Table 1's unit)."""
    import pandas as pd

    kbps = summary[summary["metric"] == "tcp_goodput_kbps"].copy()
    if kbps.empty or (summary["metric"] == "tcp_goodput_Bps").any():
        return summary
    for col in ("mean", "sd", "ci_low", "ci_high"):
        kbps[col] = kbps[col] * 125.0
    kbps["metric"] = "tcp_goodput_Bps"
    return pd.concat([summary, kbps], ignore_index=True)


def cells(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per grid cell, one column per metric mean (tcp_goodput_Bps included)."""
    from bufrepro.stats import wide_means

    return wide_means(with_derived(summary), KEYS)


def reading_of(block: Block, table: str) -> dict[str, Any]:
    """The configured cell (setup, tcp, bottleneck_mbps, rwnd_bytes) of a published table."""
    return dict(block["readings"][TABLES[table][0]])


def published_wide(published: pd.DataFrame, table: str, reading: Mapping[str, Any]) -> pd.DataFrame:
    """One published table, one row per printed row and one column per printed metric, with
    the grid keys of `reading` and buffer = the printed buffer size."""
    sub = published[published["table"] == table].copy()
    sub["block"] = sub["block"].astype(object).fillna("")
    wide = sub.pivot_table(
        index=["seed_file", "table", "block", "row", "buffer_frames"],
        columns="metric",
        values="value",
        aggfunc="first",
    ).reset_index()
    wide.columns.name = None
    wide = wide.rename(columns={"buffer_frames": "buffer"})
    for key in ("setup", *READING):
        wide[key] = reading[key]
    return wide


def table_diff(
    published: pd.DataFrame, summary: pd.DataFrame, table: str, reading: Mapping[str, Any]
) -> pd.DataFrame:
    """The diff of one published table against the cells of one reading."""
    from bufrepro.compare import diff_published

    wide = published_wide(published, table, reading)
    return diff_published(wide, with_derived(summary), KEYS, TABLES[table][1])


# --- claims -----------------------------------------------------------------------------------


def _groups(df: pd.DataFrame, by: Sequence[str], along: str, minimum: int = 2) -> list[Any]:
    out = []
    for key, g in df.groupby(list(by), sort=True, dropna=False):
        g = g.dropna(subset=[along]).sort_values(along)
        if g[along].nunique() >= minimum:
            out.append((key, g))
    return out


def _falls_slightly(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput"]), READING, "buffer"):
        ctx = context(READING, key)
        vals = list(zip(g["buffer"], g["tput"], strict=True))
        for (b0, v0), (b1, v1) in itertools.pairwise(vals):
            out.append(Check(f"{ctx}, buffer {b0}->{b1}", bool(v1 < v0), f"{v0:.0f} -> {v1:.0f}"))
        (b0, v0), (b1, v1) = vals[0], vals[-1]
        fall = (v0 - v1) / v0
        out.append(
            Check(
                f"{ctx}, buffer {b0}->{b1} overall",
                bool(0 < fall <= th["slight_frac"]),
                f"fall {fall:+.1%} (slight: above 0, at most {th['slight_frac']:.0%})",
            )
        )
    return out


def _rtt_sharp(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["rtt"]), READING, "buffer"):
        ctx = context(READING, key)
        vals = list(zip(g["buffer"], g["rtt"], strict=True))
        for (b0, v0), (b1, v1) in itertools.pairwise(vals):
            out.append(Check(f"{ctx}, buffer {b0}->{b1}", bool(v1 > v0), f"{v0:.3f} -> {v1:.3f} s"))
        (b0, v0), (b1, v1) = vals[0], vals[-1]
        out.append(
            Check(
                f"{ctx}, buffer {b0}->{b1} overall",
                bool(v1 >= th["sharp_factor"] * v0),
                f"x{v1 / v0:.1f} (sharp: at least x{th['sharp_factor']:g})",
            )
        )
    return out


def _in_range(b: float, th: Mapping[str, float]) -> bool:
    return bool(th["optimum_low"] <= b <= th["optimum_high"])


def _knee(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput"]), READING, "buffer"):
        target = th["knee_frac"] * g["tput"].max()
        knee = g[g["tput"] >= target]["buffer"].min()
        out.append(
            Check(
                context(READING, key),
                _in_range(knee, th),
                f"knee at buffer {knee} (first to reach {th['knee_frac']:.0%} of "
                f"{g['tput'].max():.0f})",
            )
        )
    return out


def _power(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput", "rtt"]), READING, "buffer"):
        power = g["tput"] / g["rtt"]
        best = g.loc[power.idxmax(), "buffer"]
        out.append(
            Check(
                context(READING, key),
                _in_range(best, th),
                f"throughput/RTT largest at buffer {best}",
            )
        )
    return out


def _tolerates(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput", "drop_share"]), READING, "buffer"):
        ctx = context(READING, key)
        first = g.iloc[0]
        b, share = first["buffer"], float(first["drop_share"])
        low, high = th["drop_share_low"], th["drop_share_high"]
        out.append(
            Check(
                f"{ctx}, buffer {b}",
                bool(low <= share <= high),
                f"drop share {share:.2%} (about 2%: {low:.0%}-{high:.0%})",
            )
        )
        out.append(
            Check(
                f"{ctx}, buffer {b}",
                bool(share >= g["drop_share"].max()),
                f"drop share {share:.2%}, largest of all buffers {g['drop_share'].max():.2%}",
            )
        )
        ratio = float(first["tput"]) / g["tput"].max()
        out.append(
            Check(
                f"{ctx}, buffer {b}",
                bool(ratio >= th["tolerate_frac"]),
                f"throughput {ratio:.0%} of the largest (tolerated: at least "
                f"{th['tolerate_frac']:.0%})",
            )
        )
    return out


def _remedy(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    by = ("tcp", "bottleneck_mbps", "delay_scale", "buffer")
    for key, g in _groups(df.dropna(subset=["tput", "rtt"]), by, "rwnd_bytes"):
        fit = g[g["tput"] >= th["remedy_goodput_frac"] * g["tput"].max()].iloc[0]
        largest = g.iloc[-1]
        ratio = float(fit["rtt"]) / float(largest["rtt"])
        out.append(
            Check(
                f"{context(by, key)}, rwnd {fit['rwnd_bytes']} vs {largest['rwnd_bytes']} B",
                bool(ratio <= th["remedy_rtt_frac"]),
                f"ping RTT {fit['rtt'] * 1000:.0f} vs {largest['rtt'] * 1000:.0f} ms "
                f"({ratio:.0%}) at {fit['tput'] / g['tput'].max():.0%} of the largest goodput",
            )
        )
    return out


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "goodput_falls_slightly",
        ("Table 1", "Table 1" + ALL),
        "Goodput falls slightly as the buffer grows (Table 1; abstract, conclusion).",
        "Per reading (tcp, B2, rwnd, delays): goodput falls at each buffer step, and from the "
        "smallest to the largest buffer by more than 0 and at most slight_frac.",
        _falls_slightly,
    ),
    Claim(
        "rtt_grows_sharply",
        ("Table 1", "Table 1" + ALL, "Table 5", "Table 5" + ALL, "Fig. 2"),
        "RTT grows sharply as the buffer grows (TCP RTT in Tables 1 and 5, ping RTT in Fig. 2).",
        "Per reading: RTT rises at each buffer step, and the largest buffer's RTT is at least "
        "sharp_factor times the smallest's.",
        _rtt_sharp,
    ),
    Claim(
        "optimum_3_to_6",
        ("Table 5", "Table 5" + ALL),
        "The throughput-latency optimum lies between 3 and 6 buffers (Table 5).",
        "Per reading: the knee - the smallest buffer whose throughput reaches knee_frac of the "
        "largest - lies in [optimum_low, optimum_high].",
        _knee,
    ),
    Claim(
        "optimum_3_to_6_power",
        ("Table 5", "Table 5" + ALL),
        "The same optimum, read as the largest power (throughput / RTT).",
        "Per reading: the buffer with the largest throughput / RTT lies in "
        "[optimum_low, optimum_high].",
        _power,
    ),
    Claim(
        "tolerates_2pct_drops",
        ("Table 5", "Table 5" + ALL),
        "TCP tolerates about 2% drops at a 1-frame buffer, the highest drop share of Table 5.",
        "Per reading, at the smallest buffer: drop share (drops / data packets sent) in "
        "[drop_share_low, drop_share_high]; it is the largest of all buffers; throughput at least "
        "tolerate_frac of the largest.",
        _tolerates,
    ),
    Claim(
        "rwnd_remedy",
        ("remedy",),
        "A receiver that advertises a window sized to the path removes most of the large-buffer "
        "delay (conclusion).",
        "Per (tcp, B2, delays, buffer) of the latency setup: the smallest advertised window "
        "reaching remedy_goodput_frac of the largest goodput has a ping RTT of at most "
        "remedy_rtt_frac of the largest window's.",
        _remedy,
    ),
)


def _is_reading(df: pd.DataFrame, reading: Mapping[str, Any]) -> pd.DataFrame:
    """The rows of `df` that belong to `reading` (setup, tcp, B2, rwnd, delays)."""
    keep = df["setup"] == reading["setup"]
    for key in READING:
        keep &= df[key] == reading[key]
    out: pd.DataFrame = df[keep]
    return out


def our_claim_cells(block: Block, summary: pd.DataFrame) -> pd.DataFrame:
    """Our cell means per claim scope, with the columns the checks read.

    "Table 1" and "Table 5" hold the reading each table is diffed against (ramya.readings);
    "Table 1, all readings" and "Table 5, all readings" every reading of that setup we ran.
    """
    import pandas as pd

    wide = cells(summary)
    parts = []
    for scope, setup, tput, rtt, scale in (
        ("Table 1", "table1", "tcp_goodput_Bps", "tcp_rtt_s_mean", 1.0),
        ("Table 1" + ALL, "table1", "tcp_goodput_Bps", "tcp_rtt_s_mean", 1.0),
        ("Table 5", "table5", "tcp_throughput_kbps", "tcp_rtt_s_mean", 1.0),
        ("Table 5" + ALL, "table5", "tcp_throughput_kbps", "tcp_rtt_s_mean", 1.0),
        ("Fig. 2", "latency", "tcp_goodput_Bps", "ping_rtt_ms_mean", 1e-3),
        ("remedy", "latency", "tcp_goodput_Bps", "ping_rtt_ms_mean", 1e-3),
    ):
        sub = wide[wide["setup"] == setup]
        if scope in TABLES:
            sub = _is_reading(sub, reading_of(block, scope))
        if sub.empty or tput not in sub or rtt not in sub:
            continue
        part = sub[[*KEYS]].copy()
        part["scope"] = scope
        part["tput"] = sub[tput]
        part["rtt"] = sub[rtt] * scale
        part["drops"] = sub.get("tcp_drops_total")
        part["drop_share"] = sub.get("tcp_loss_rate")
        parts.append(part)
    if not parts:
        return pd.DataFrame(columns=[*KEYS, "scope", "tput", "rtt", "drops", "drop_share"])
    return pd.concat(parts, ignore_index=True)


def paper_claim_cells(block: Block, published: pd.DataFrame) -> pd.DataFrame:
    """The paper's Tables 1 and 5 with the columns the checks read.

    The drop share needs the packets sent, which the paper does not print: drops / (drops +
    packets delivered), delivered = goodput x duration / MSS (Table 1) or throughput x duration
    / (MSS + headers) (Table 5), with the paper's durations (1000 s, 180 s) and our sizes.
    """
    import pandas as pd

    tcp = block["tcp"]
    rows = []
    for table in TABLES:
        duration = PAPER_DURATION_S[table]
        wide = published_wide(published, table, {k: "paper" for k in ("setup", *READING)})
        for _, r in wide.iterrows():
            if table == "Table 1":
                tput, rtt, drops = r["goodput"], r["avg_rtt"], r["packets_dropped"]
                delivered = tput * duration / tcp["mss_bytes"]
            else:
                tput, rtt, drops = r["throughput"], r["rtt"], r["packet_drops"]
                delivered = tput * 1000 / 8 * duration / (tcp["mss_bytes"] + tcp["header_bytes"])
            row = {
                "tcp": "paper",
                "bottleneck_mbps": "paper",
                "rwnd_bytes": "paper",
                "delay_scale": "paper",
                "buffer": r["buffer"],
                "tput": tput,
                "rtt": rtt,
                "drops": drops,
                "drop_share": drops / (drops + delivered),
            }
            rows += [{"scope": table, **row}, {"scope": table + ALL, **row}]
    return pd.DataFrame(rows)


def compare(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The diff of both tables against their configured readings, and the claims' verdicts."""
    import pandas as pd

    diff = pd.concat(
        [table_diff(published, summary, t, reading_of(block, t)) for t in TABLES],
        ignore_index=True,
    )
    claims = evaluate_claims(
        our_claim_cells(block, summary),
        paper_claim_cells(block, published),
        CLAIMS,
        dict(block["claims"]),
        scope_key="scope",
        seed_files={s: SEED_FILE for c in CLAIMS for s in c.scopes},
    )
    return diff, claims


# --- notes ------------------------------------------------------------------------------------


def _reading_label(r: Mapping[str, Any]) -> str:
    return (
        f"{r['tcp']}, B2 {r['bottleneck_mbps']:g} Mb/s, rwnd {r['rwnd_bytes']} B, "
        f"delays x{r['delay_scale']:g}"
    )


def reading_fits(block: Block, summary: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Each published table against every reading of its setup that we ran.

    Columns: table, reading (tcp, bottleneck_mbps, rwnd_bytes), diffed (the configured one),
    values (compared), median_abs_rel (over all values), per-metric medians, within (values
    within fit_frac), in_ci, best (the smallest median_abs_rel of the table).
    """
    import pandas as pd

    wide = cells(summary)
    rows = []
    for table, (setup, metric_map) in TABLES.items():
        configured = reading_of(block, table)
        options = wide[wide["setup"] == setup][list(READING)].drop_duplicates()
        for _, opt_row in options.iterrows():
            opt = {str(k): v for k, v in opt_row.items()}
            reading = {"setup": setup, **opt}
            d = table_diff(published, summary, table, reading)
            d = d[d["has_counterpart"]]
            if d.empty:
                continue
            rel = d["rel_diff"].abs()
            row: dict[str, Any] = {
                "table": table,
                **opt,
                "diffed": all(reading[k] == configured[k] for k in reading),
                "values": len(d),
                "median_abs_rel": float(rel.median()),
                "within": int((rel <= block["claims"]["fit_frac"]).sum()),
                "in_ci": int(d["in_ci"].sum()),
            }
            for col in metric_map:
                row[f"median_abs_rel_{col}"] = float(rel[d["published_column"] == col].median())
            rows.append(row)
    fits = pd.DataFrame(rows)
    if fits.empty:
        return fits
    best = fits.groupby("table")["median_abs_rel"].transform("min")
    fits["best"] = fits["median_abs_rel"] == best
    return fits


def _fit_notes(block: Block, fits: pd.DataFrame, published: pd.DataFrame) -> list[dict[str, str]]:
    import pandas as pd

    out = []
    frac = block["claims"]["fit_frac"]
    for _, f in fits.iterrows():
        table = str(f["table"])
        printed = published[published["table"] == table]
        paper = "; ".join(
            f"{m} {g['value'].min():g}-{g['value'].max():g} {g['unit'].iloc[0]}"
            for m, g in printed.groupby("metric", sort=False)
        )
        per = ", ".join(
            f"{col} {f[f'median_abs_rel_{col}']:.0%}"
            for col in TABLES[table][1]
            if pd.notna(f.get(f"median_abs_rel_{col}"))
        )
        flags = [w for w, on in (("best fit", f["best"]), ("diffed", f["diffed"])) if on]
        out.append(
            {
                "section": "which reading fits which table",
                "topic": f"{table} vs {_reading_label({str(k): v for k, v in f.items()})}",
                "paper": paper,
                "ours": (
                    f"median |rel. diff| {f['median_abs_rel']:.0%} over {f['values']} values "
                    f"({per}); {f['within']} within {frac:.0%}, {f['in_ci']} inside our 95% CI"
                ),
                "note": ", ".join(flags),
            }
        )
    return out


def _cell_value(wide: pd.DataFrame, where: Mapping[str, Any], metric: str) -> float | None:
    sel = wide
    for k, v in where.items():
        sel = sel[sel[k] == v]
    if sel.empty or metric not in sel:
        return None
    return float(sel[metric].iloc[0])


def _choice_notes(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame
) -> list[dict[str, str]]:
    wide = cells(summary)
    t5 = published[(published["table"] == "Table 5") & (published["metric"] == "throughput")]
    t1 = published[(published["table"] == "Table 1") & (published["metric"] == "goodput")]
    r1, r5 = reading_of(block, "Table 1"), reading_of(block, "Table 5")
    runs = {k: sorted({v for s in block["grid"] for v in s[k]}, key=str) for k in ("tcp", *READING)}
    b5 = sorted({v for s in block["grid"] if "table5" in s["setup"] for v in s["bottleneck_mbps"]})
    w1 = sorted({v for s in block["grid"] if "table1" in s["setup"] for v in s["rwnd_bytes"]})
    notes = [
        {
            "topic": "Table 5's bottleneck",
            "paper": "B2 = 0.5 Mb/s for every experiment 'unless otherwise stated'; Table 5 "
            f"reaches {t5['value'].max():g} kbit/s; it uses 'the same network model as in "
            "experiment 4', which does not exist",
            "ours": f"diffed against B2 = {r5['bottleneck_mbps']:g} Mb/s; runs at "
            + ", ".join(f"{v:g}" for v in b5)
            + " Mb/s",
            "note": "config: ramya.readings.table5, ramya.grid (sweep table5)",
        },
        {
            "topic": "Table 1's advertised window",
            "paper": "not stated (Table 5 'now' fixes it at 100 KB); INET's default is 14 x MSS",
            "ours": f"diffed against {r1['rwnd_bytes']} B; runs with "
            + ", ".join(str(v) for v in w1)
            + " B",
            "note": "config: ramya.readings.table1.rwnd_bytes, ramya.grid (sweeps table1*)",
        },
        {
            "topic": "TCP variant",
            "paper": "not stated (OMNeT++/INET, whose default is TCPReno without SACK)",
            "ours": f"Table 1 diffed with {r1['tcp']}, Table 5 with {r5['tcp']}; runs with "
            + ", ".join(runs["tcp"]),
            "note": "config: ramya.readings.*.tcp, ramya.grid",
        },
        {
            "topic": "1000 MB in 1000 s",
            "paper": "the client 'transfers 1000MB' in the 1000 s run, but Table 1's "
            f"{t1['value'].min() / 1e3:.0f}-{t1['value'].max() / 1e3:.0f} kB/s of goodput move "
            f"only {t1['value'].max() * 1000 / 1e6:.0f} MB in 1000 s",
            "ours": f"a {block['setups']['table1']['duration_s']:g} s run with an unlimited FTP "
            "source; goodput over the whole run (1000 MB read as the application's byte limit)",
            "note": "config: ramya.setups.table1",
        },
        {
            "topic": "units",
            "paper": "buffer in frames (Table 5 prints no unit, nor for the average queue); "
            "throughput kbit/s with or without headers not said",
            "ours": f"buffer = frames {block['topology']['buffer_counts']}; Table 5's "
            "throughput counts whole IP packets (576 B per 536 B segment), Table 1's goodput "
            "payload bytes; queue = packets waiting, time average",
            "note": "config: ramya.topology.buffer_counts; awk/throughput.awk, awk/link.awk",
        },
    ]
    rerun = [s for s in block["grid"] if "table1" in s["setup"] and 0.1 in s["bottleneck_mbps"]]
    if rerun:
        tcp0 = rerun[0]["tcp"][0]
        where = {"tcp": tcp0}
        sel = wide[(wide["setup"] == "table1") & (wide["bottleneck_mbps"] == 0.1)]
        sel = sel[sel["tcp"] == tcp0].sort_values("buffer")
        text = "; ".join(
            f"{int(r['buffer'])} frames: {r['tcp_goodput_Bps']:.0f} B/s, RTT "
            f"{r['tcp_rtt_s_mean']:.2f} s"
            for _, r in sel.iterrows()
            if "tcp_goodput_Bps" in r and "tcp_rtt_s_mean" in r
        )
        notes.append(
            {
                "topic": "B2 = 0.1 Mb/s rerun",
                "paper": "announced ('more congested'), no numbers printed",
                "ours": f"run ({where['tcp']}): {text}" if text else "run, no results yet",
                "note": "config: ramya.grid (sweep table1-rerun)",
            }
        )
    drops = _cell_value(wide, {"setup": "table1", **r1, "buffer": 10}, "tcp_drops_total")
    share = _cell_value(wide, {"setup": "table1", **r1, "buffer": 10}, "tcp_loss_rate")
    if drops is not None and share is not None:
        notes.append(
            {
                "topic": "Table 1's drops",
                "paper": "31168 drops at 10 frames (~30% of the segments) beside the highest "
                "goodput; 2300 at 50 frames but 3643 at 100",
                "ours": f"{drops:.0f} drops ({share:.1%} of the data packets) at 10 frames",
                "note": "cannot be reconciled with one Reno/NewReno flow; kept in the diff",
            }
        )
    return [
        {"section": "choices where the paper is silent or contradicts itself", **n} for n in notes
    ]


def _difference_notes(block: Block) -> list[dict[str, str]]:
    tcp, ping = block["tcp"], block["ping"]
    wire = tcp["mss_bytes"] + tcp["header_bytes"]
    rows = [
        (
            "buffer: frames vs packets",
            "INET: a DropTailQueue of N frames before the PPP interface; N frames wait while one "
            "is being sent",
            "ns-2: DropTail drops when queue length + 1 >= limit, so the packet on the wire "
            "counts (a limit of 1 drops every packet); buffer N -> limit "
            + ("N + 1" if block["topology"]["buffer_counts"] == "waiting" else "N"),
            "decides the 1-3 frame rows of Table 5; topology.buffer_counts",
        ),
        (
            "headers and framing",
            f"INET: {tcp['mss_bytes']} B + 20 B TCP + 20 B IPv4 + 7 B PPP per frame",
            f"ns-2: {wire} B per packet, no link-layer framing",
            "the same link carries ~1.2% more payload in ns-2",
        ),
        (
            "TCP",
            "INET TCP: connection set-up, byte sequence numbers, Nagle, exact timers, RTO "
            ">= 1 s; TCPReno by default (no SACK, no delayed ACK, IW 1)",
            f"ns-2 one-way Agent/TCP/Reno or /Newreno: windows in packets (window_ = rwnd / "
            f"{tcp['mss_bytes']} B), a 40 B SYN-like first packet, RTO >= {tcp['min_rto_s']:g} s, "
            f"timers in {tcp['tick_s'] * 1000:g} ms ticks, TCPSink ACKs every segment",
            "Reno vs NewReno decides small-buffer throughput (multiple losses per window make "
            "Reno time out); both are run",
        ),
        (
            "advertised window above 64 KiB",
            "a 100 KB window needs the window-scale option (RFC 1323) in a real TCP",
            "ns-2's window_ is a plain packet count; no option needed",
            "none for the results; noted because the paper does not mention window scaling",
        ),
        (
            "RTT",
            "INET's TCP measures one timed segment at a time (Karn's rule)",
            f"ns-2's rtt_ samples: the same rule, whole ticks of {tcp['tick_s'] * 1000:g} ms "
            "(awk/rtt.awk)",
            "RTT resolution 1 ms",
        ),
        (
            "ping",
            "INET PingApp: ICMP echo, 56 data bytes",
            f"ns-2 Agent/Ping of {ping['packet_bytes']} B, one-way delays reported to 0.1 ms "
            "(awk/ping.awk)",
            f"{ping['packet_bytes'] * 8 / ping['interval_s'] / 1000:g} kb/s of pings share the "
            "R1 -> R2 buffer",
        ),
        (
            "queue length",
            "INET: the queue-length vector of the DropTailQueue (frames waiting)",
            "ns-2: time average of the trace's +/-/d on R1 -> R2 (awk/link.awk) and QueueMonitor "
            "samples (awk/queue_samples.awk)",
            "both exclude the frame on the wire",
        ),
        (
            "randomness",
            "one deterministic run per table row",
            "seeds move the transfer's start (and the ping phase) only",
            "confidence intervals are narrow; the spread is not the paper's uncertainty",
        ),
    ]
    return [
        {"section": "OMNeT++/INET vs ns-2", "topic": t, "paper": p, "ours": o, "note": n}
        for t, p, o, n in rows
    ]


def notes(block: Block, summary: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """The notes table: readings vs tables, the choices made, the simulator differences."""
    import pandas as pd

    fits = reading_fits(block, summary, published)
    rows = _fit_notes(block, fits, published) if not fits.empty else []
    rows += _choice_notes(block, summary, published)
    rows += _difference_notes(block)
    return pd.DataFrame(rows, columns=["section", "topic", "paper", "ours", "note"])


# --- figures ----------------------------------------------------------------------------------


def draw(summary: pd.DataFrame, published: pd.DataFrame) -> dict[str, Figure]:
    """The figures that need only the summary and the published table."""
    from bufrepro.studies import ramya_plots

    return ramya_plots.draw(with_derived(summary), published)


STUDY = Study(
    name=NAME,
    title="Ramya & Geetha: buffer size vs goodput and latency (002; OMNeT++/INET ported to ns-2)",
    seed_files=(SEED_FILE,),
    template="ramya.tcl.j2",
    grid_keys=KEYS,
    path_labels={
        "setup": "",
        "tcp": "",
        "bottleneck_mbps": "bw",
        "rwnd_bytes": "rwnd",
        "delay_scale": "d",
        "buffer": "buf",
    },
    unstated=UNSTATED,
    reported=REPORTED,
    report_metrics=REPORT_METRICS,
    figures=FIGURES,
    params=params,
    parse_args=parse_args,
    compare=compare,
    draw=draw,
    own_rules=frozenset({"run_ns2", "parse_trace", "compare_published"}),
    check=check,
    report_tables=("notes",),
    points=points,
    grid_text=grid_text,
)
