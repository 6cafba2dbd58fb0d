"""The ramya study's notes (their words in notes.yaml): readings vs tables, choices, simulators."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import prose
from bufrepro.kit.study import Block
from bufrepro.studies.ramya.cells import TABLES, cells, reading_of, table_diff
from bufrepro.studies.ramya.params import READING

NOTES = Path(__file__).with_name("notes.yaml")


def _reading_label(r: Mapping[str, Any]) -> str:
    return prose.fill(prose.load(NOTES)["reading"], **r)


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
    texts = prose.load(NOTES)["fit"]
    out = []
    frac = block["claims"]["fit_frac"]
    for _, f in fits.iterrows():
        table = str(f["table"])
        printed = published[published["table"] == table]
        paper = "; ".join(
            prose.fill(
                texts["printed"],
                metric=m,
                low=g["value"].min(),
                high=g["value"].max(),
                unit=g["unit"].iloc[0],
            )
            for m, g in printed.groupby("metric", sort=False)
        )
        per = ", ".join(
            prose.fill(texts["per"], column=col, median=f[f"median_abs_rel_{col}"])
            for col in TABLES[table][1]
            if pd.notna(f.get(f"median_abs_rel_{col}"))
        )
        flags = [texts[w] for w in ("best", "diffed") if f[w]]
        out.append(
            prose.note(
                texts,
                table=table,
                reading=_reading_label({str(k): v for k, v in f.items()}),
                paper=paper,
                median=f["median_abs_rel"],
                values=f["values"],
                per=per,
                within=f["within"],
                frac=frac,
                in_ci=f["in_ci"],
                flags=", ".join(flags),
            )
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
    texts = prose.load(NOTES)["choices"]
    wide = cells(summary)
    t5 = published[(published["table"] == "Table 5") & (published["metric"] == "throughput")]
    t1 = published[(published["table"] == "Table 1") & (published["metric"] == "goodput")]
    r1, r5 = reading_of(block, "Table 1"), reading_of(block, "Table 5")
    runs = {k: sorted({v for s in block["grid"] for v in s[k]}, key=str) for k in ("tcp", *READING)}
    b5 = sorted({v for s in block["grid"] if "table5" in s["setup"] for v in s["bottleneck_mbps"]})
    w1 = sorted({v for s in block["grid"] if "table1" in s["setup"] for v in s["rwnd_bytes"]})
    notes = [
        prose.note(
            texts["table5_bottleneck"],
            t5_max=t5["value"].max(),
            b2=r5["bottleneck_mbps"],
            b5=", ".join(f"{v:g}" for v in b5),
        ),
        prose.note(texts["table1_window"], rwnd=r1["rwnd_bytes"], w1=", ".join(str(v) for v in w1)),
        prose.note(texts["tcp"], tcp1=r1["tcp"], tcp5=r5["tcp"], tcps=", ".join(runs["tcp"])),
        prose.note(
            texts["transfer"],
            low=t1["value"].min() / 1e3,
            high=t1["value"].max() / 1e3,
            moved=t1["value"].max() * 1000 / 1e6,
            duration=block["setups"]["table1"]["duration_s"],
        ),
        prose.note(texts["units"], counts=block["topology"]["buffer_counts"]),
    ]
    rerun = [s for s in block["grid"] if "table1" in s["setup"] and 0.1 in s["bottleneck_mbps"]]
    if rerun:
        tcp0 = rerun[0]["tcp"][0]
        sel = wide[(wide["setup"] == "table1") & (wide["bottleneck_mbps"] == 0.1)]
        sel = sel[sel["tcp"] == tcp0].sort_values("buffer")
        text = "; ".join(
            prose.fill(
                texts["rerun"]["buffer"],
                frames=int(r["buffer"]),
                goodput=r["tcp_goodput_Bps"],
                rtt=r["tcp_rtt_s_mean"],
            )
            for _, r in sel.iterrows()
            if "tcp_goodput_Bps" in r and "tcp_rtt_s_mean" in r
        )
        rerun_texts = dict(texts["rerun"])
        if not text:
            rerun_texts["ours"] = rerun_texts["ours_none"]
        notes.append(prose.note(rerun_texts, tcp=tcp0, text=text))
    drops = _cell_value(wide, {"setup": "table1", **r1, "buffer": 10}, "tcp_drops_total")
    share = _cell_value(wide, {"setup": "table1", **r1, "buffer": 10}, "tcp_loss_rate")
    if drops is not None and share is not None:
        notes.append(prose.note(texts["drops"], drops=drops, share=share))
    return [{**n, "section": texts["section"]} for n in notes]


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
    texts = prose.load(NOTES)["physics"]
    slope, intercept = table5_rtt_fit(published)
    tcp, topo = block["tcp"], block["topology"]
    frame = tcp["mss_bytes"] + tcp["header_bytes"] + INET_PPP_BYTES
    r5 = reading_of(block, "Table 5")
    b2 = float(r5["bottleneck_mbps"])
    per_frame = {mbps: frame * 8 / (mbps * 1e6) for mbps in sorted({0.5, b2})}
    rtt = t5[t5["metric"] == "rtt"].sort_values("buffer_frames")
    queue = t5[t5["metric"] == "avg_queue_length"]["value"]
    first = rtt.iloc[0]
    one_way = 2 * topo["access_delay_ms"] + topo["bottleneck_delay_ms"]
    scale = float(r5["delay_scale"])
    floor = texts["floor"]
    scaled = (
        prose.fill(floor["scaled"], scale=scale, floor_scaled=2 * one_way * scale)
        if scale != 1
        else floor["unscaled"]
    )
    rows = [
        prose.note(
            texts["slope"],
            rtt_min=rtt["value"].min(),
            rtt_max=rtt["value"].max(),
            queue_min=queue.min(),
            queue_max=queue.max(),
            slope_ms=slope * 1000,
            intercept_ms=intercept * 1000,
            frame=frame,
            mss=tcp["mss_bytes"],
            header=tcp["header_bytes"],
            ppp=INET_PPP_BYTES,
            per_frame=", ".join(
                prose.fill(texts["slope"]["per_frame"], ms=t * 1000, mbps=m)
                for m, t in per_frame.items()
            ),
            slope_mbps=frame * 8 / slope / 1e6,
            b2=b2,
        ),
        prose.note(
            floor,
            rtt=first["value"],
            frames=int(first["buffer_frames"]),
            one_way=one_way,
            floor=2 * one_way,
            scaled=scaled,
            rtt_ms=first["value"] * 1000,
        ),
    ]
    return [{**r, "section": texts["section"]} for r in rows]


def _difference_notes(block: Block) -> list[dict[str, str]]:
    texts = prose.load(NOTES)["differences"]
    tcp, ping = block["tcp"], block["ping"]
    waiting = block["topology"]["buffer_counts"] == "waiting"
    return prose.notes(
        texts,
        limit=texts["limit_waiting"] if waiting else texts["limit_other"],
        mss=tcp["mss_bytes"],
        wire=tcp["mss_bytes"] + tcp["header_bytes"],
        min_rto=tcp["min_rto_s"],
        tick_ms=tcp["tick_s"] * 1000,
        ping_bytes=ping["packet_bytes"],
        ping_kbps=ping["packet_bytes"] * 8 / ping["interval_s"] / 1000,
    )


def notes(block: Block, summary: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """The notes table: readings vs tables, the choices made, the simulator differences."""
    fits = reading_fits(block, summary, published)
    rows = _fit_notes(block, fits, published) if not fits.empty else []
    rows += _choice_notes(block, summary, published)
    rows += _physics_notes(block, published)
    rows += _difference_notes(block)
    return pd.DataFrame(rows, columns=list(prose.NOTE_FIELDS))
