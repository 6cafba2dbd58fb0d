"""The ramya study's notes: how each reading fits each table, the choices, the simulators."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit.study import Block
from bufrepro.studies.ramya.cells import TABLES, cells, reading_of, table_diff
from bufrepro.studies.ramya.params import READING


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
            "note": "config: ramya.topology.buffer_counts; awk/ramya/ramya.awk "
            "(lib/throughput.awk, lib/link.awk)",
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


# INET's PPP framing per frame (bytes); ns-2 has none. A frame on the wire is MSS + TCP/IP
# headers + this.
INET_PPP_BYTES = 7


def table5_rtt_fit(published: pd.DataFrame) -> tuple[float, float]:
    """Least-squares slope (s per frame) and intercept (s) of Table 5's RTT on its average
    queue, row by row."""
    t5 = published[published["table"] == "Table 5"]
    wide = t5.pivot_table(index="row", columns="metric", values="value", aggfunc="first")
    q, r = wide["avg_queue_length"].astype(float), wide["rtt"].astype(float)
    slope = float(((q - q.mean()) * (r - r.mean())).sum() / ((q - q.mean()) ** 2).sum())
    return slope, float(r.mean() - slope * q.mean())


def _physics_notes(block: Block, published: pd.DataFrame) -> list[dict[str, str]]:
    """Table 5's reading from physics: the RTT per queued frame and the RTT floor."""
    t5 = published[published["table"] == "Table 5"]
    if t5.empty:
        return []
    slope, intercept = table5_rtt_fit(published)
    tcp, topo = block["tcp"], block["topology"]
    frame = tcp["mss_bytes"] + tcp["header_bytes"] + INET_PPP_BYTES
    r5 = reading_of(block, "Table 5")
    b2 = float(r5["bottleneck_mbps"])
    per_frame = {mbps: frame * 8 / (mbps * 1e6) for mbps in sorted({0.5, b2})}
    rtt = t5[t5["metric"] == "rtt"].sort_values("buffer_frames")
    first = rtt.iloc[0]
    one_way = 2 * topo["access_delay_ms"] + topo["bottleneck_delay_ms"]
    scale = float(r5["delay_scale"])
    return [
        {
            "section": "Table 5's reading from physics",
            "topic": "RTT per queued frame",
            "paper": f"RTT {rtt['value'].min():g}-{rtt['value'].max():g} s over average queues "
            f"of {t5[t5['metric'] == 'avg_queue_length']['value'].min():g}-"
            f"{t5[t5['metric'] == 'avg_queue_length']['value'].max():g} frames",
            "ours": f"least-squares slope {slope * 1000:.2f} ms per queued frame (intercept "
            f"{intercept * 1000:.1f} ms); one {frame} B frame ({tcp['mss_bytes']} B MSS + "
            f"{tcp['header_bytes']} B TCP/IP + {INET_PPP_BYTES} B PPP) takes "
            + ", ".join(f"{t * 1000:.2f} ms at {m:g} Mb/s" for m, t in per_frame.items()),
            "note": f"the slope is one frame's transmission at {frame * 8 / slope / 1e6:.2f} Mb/s: "
            f"B2 = {b2:g} Mb/s (readings.table5.bottleneck_mbps) by physics, not only by fit",
        },
        {
            "section": "Table 5's reading from physics",
            "topic": "RTT floor",
            "paper": f"RTT {first['value']:g} s at {int(first['buffer_frames'])} frame(s)",
            "ours": f"the stated delays (D1 + D2 + D3 = {one_way:g} ms one way) allow no RTT "
            f"below {2 * one_way:g} ms before any transmission; "
            + (
                f"scaled by {scale:g} (readings.table5.delay_scale) {2 * one_way * scale:g} ms"
                if scale != 1
                else "readings.table5.delay_scale 1 keeps them as stated"
            ),
            "note": f"{first['value'] * 1000:g} ms < {2 * one_way:g} ms: the stated delays cannot "
            "hold; the paper's own 'shortest possible round-trip time' is the halved delays' "
            "floor",
        },
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
            "(awk/ramya/side.awk)",
            "RTT resolution 1 ms",
        ),
        (
            "ping",
            "INET PingApp: ICMP echo, 56 data bytes",
            f"ns-2 Agent/Ping of {ping['packet_bytes']} B, one-way delays reported to 0.1 ms "
            "(awk/ramya/side.awk)",
            f"{ping['packet_bytes'] * 8 / ping['interval_s'] / 1000:g} kb/s of pings share the "
            "R1 -> R2 buffer",
        ),
        (
            "queue length",
            "INET: the queue-length vector of the DropTailQueue (frames waiting)",
            "ns-2: time average of the trace's +/-/d on R1 -> R2 (awk/ramya/ramya.awk, "
            "lib/link.awk) and QueueMonitor samples (awk/ramya/side.awk)",
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
    fits = reading_fits(block, summary, published)
    rows = _fit_notes(block, fits, published) if not fits.empty else []
    rows += _choice_notes(block, summary, published)
    rows += _physics_notes(block, published)
    rows += _difference_notes(block)
    return pd.DataFrame(rows, columns=["section", "topic", "paper", "ours", "note"])
