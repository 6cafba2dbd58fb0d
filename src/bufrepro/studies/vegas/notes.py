"""The vegas study's notes (their words in notes.yaml): readings vs tables, choices, simulators."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import prose
from bufrepro.kit.study import Block
from bufrepro.studies.vegas.bdp import largest_gap, upper_split
from bufrepro.studies.vegas.params import (
    HEADER_BYTES,
    RANGE_M,
    READING,
    bottleneck_delay_ms,
    geometry,
)
from bufrepro.studies.vegas.tables import METRICS, TABLES, cells, reading_of, table_diff

COLUMNS = list(prose.NOTE_FIELDS)
NOTES = Path(__file__).with_name("notes.yaml")


def _label(reading: Mapping[str, Any]) -> str:
    return prose.fill(prose.load(NOTES)["reading"], **reading)


def reading_fits(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame
) -> list[dict[str, str]]:
    """Each of Tables II-IV against every reading (buffer, start) of its setup that we ran."""
    texts = prose.load(NOTES)["fit"]
    wide = cells(summary)
    frac = block["claims"]["fit_frac"]
    rows = []
    for table, (setup, variant) in TABLES.items():
        configured = reading_of(block, table)
        sub = wide[(wide["setup"] == setup) & (wide["variant"] == variant)]
        for _, opt in sub[list(READING)].drop_duplicates().iterrows():
            reading = {**configured, **{k: opt[k] for k in READING}}
            d = table_diff(published, summary, table, reading)
            d = d[d["has_counterpart"]]
            if d.empty:
                continue
            rel = d["rel_diff"].abs()
            per = ", ".join(
                prose.fill(
                    texts["per"], column=col, median=rel[d["published_column"] == col].median()
                )
                for col in METRICS
                if (d["published_column"] == col).any()
            )
            diffed = all(reading[k] == configured[k] for k in READING)
            rows.append(
                prose.note(
                    texts,
                    table=table,
                    reading=_label(reading),
                    variant=variant,
                    values=len(d),
                    median=rel.median(),
                    per=per,
                    within=(rel <= frac).sum(),
                    frac=frac,
                    in_ci=int(d["in_ci"].sum()),
                    diffed=texts["diffed"] if diffed else "",
                )
            )
    return rows


def _groups_text(rtts: list[float], tputs: list[float]) -> str:
    """Two throughput groups split at the largest gap: each group's range and its RTTs."""
    texts = prose.load(NOTES)["spread"]
    upper = upper_split(rtts, tputs)
    parts = []
    for name, inside in ((texts["upper"], True), (texts["lower"], False)):
        sel = sorted((r, t) for r, t in zip(rtts, tputs, strict=True) if (r in upper) == inside)
        vals = [t for _, t in sel]
        at = ", ".join(f"{r:g}" for r, _ in sel)
        parts.append(prose.fill(texts["group"], name=name, low=min(vals), high=max(vals), rtts=at))
    return "; ".join(parts)


def paper_groups(published: pd.DataFrame) -> str:
    """Table IV's printed throughputs (one run per RTT) split at their largest gap."""
    texts = prose.load(NOTES)["spread"]
    tab = published[
        (published["table"] == "Table IV") & (published["metric"] == "network_throughput")
    ]
    if len(tab) < 2:
        return str(texts["paper_too_few"])
    rtts = list(tab["rtt_ms"].astype(float))
    groups = _groups_text(rtts, list(tab["value"].astype(float)))
    return prose.fill(texts["paper"], groups=groups)


def mode_notes(runs: pd.DataFrame, published: pd.DataFrame) -> list[dict[str, str]]:
    """How the seeds spread. RTT setup (one packet size), per variant and transfer start: the
    runs' throughputs split in two at their largest gap, the two groups' ranges, and per RTT how
    many seeds land in the upper group (were the boundaries a property of the RTT, all seeds of
    an RTT would land in one group), beside Table IV's own two groups. Packet setup: each packet
    size's range over the seeds."""
    texts = prose.load(NOTES)["spread"]
    rows = []
    paper_rtt = paper_groups(published)
    for (setup, variant, start), g in runs.groupby(["setup", "variant", "start_s"], sort=True):
        where = {"section": texts["section"], "topic": texts["topic"]}
        if setup == "packet":
            tput = g.groupby("packet_bytes", sort=True)["tcp_throughput_kbps"]
            spread = ", ".join(
                prose.fill(texts["packet"]["size"], bytes=v, low=lo, high=hi)
                for (v, lo), hi in zip(tput.min().items(), tput.max(), strict=True)
            )
            rows.append(
                prose.note(
                    {**where, **texts["packet"]},
                    setup=setup,
                    variant=variant,
                    start=start,
                    spread=spread,
                )
            )
            continue
        ordered = sorted(g["tcp_throughput_kbps"].astype(float))
        if len(ordered) < 2:
            continue
        cut = largest_gap(ordered)
        low, high = ordered[:cut], ordered[cut:]
        counts = ", ".join(
            prose.fill(
                texts["rtt"]["count"],
                rtt=v,
                upper=int((h["tcp_throughput_kbps"] >= high[0]).sum()),
                seeds=len(h),
            )
            for v, h in g.groupby("rtt_ms", sort=True)
        )
        rows.append(
            prose.note(
                {**where, **texts["rtt"]},
                setup=setup,
                variant=variant,
                start=start,
                paper=paper_rtt,
                low_n=len(low),
                low_min=low[0],
                low_max=low[-1],
                high_n=len(high),
                high_min=high[0],
                high_max=high[-1],
                counts=counts,
            )
        )
    return rows


def choice_notes(block: Block) -> list[dict[str, str]]:
    """Where the paper is silent or contradicts itself, and what we did."""
    pkt = block["readings"]["packet"]
    topo = block["topology"]
    starts = sorted({v for w in block["grid"] for v in w["start_s"]})
    return prose.notes(
        prose.load(NOTES)["choices"],
        pkt=pkt,
        starts=", ".join(f"{v:g}" for v in starts),
        edge_ms=topo["cn_delay_ms"] + topo["ar_delay_ms"],
        n1_map_ms=bottleneck_delay_ms(block, pkt["rtt_ms"]),
        mob=block["mobility"],
        geo=geometry(block),
        range_m=RANGE_M,
        setups=block["setups"],
        header_bytes=HEADER_BYTES,
    )


def difference_notes(block: Block) -> list[dict[str, str]]:
    """What ns-2.35 models differently from the paper's wireless IPv6 / HMIPv6 setup."""
    return prose.notes(prose.load(NOTES)["differences"], wl=block["wireless"])


def definition_notes() -> list[dict[str, str]]:
    """How the paper's words map to our metrics (exact texts in the AWK headers)."""
    return prose.notes(prose.load(NOTES)["definitions"])


def notes(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame, runs: pd.DataFrame
) -> pd.DataFrame:
    """The notes table: readings vs tables, the runs' two groups, the choices made, the
    simulator differences, the paper's words."""
    rows = reading_fits(block, summary, published)
    rows += mode_notes(runs, published)
    rows += choice_notes(block)
    rows += difference_notes(block)
    rows += definition_notes()
    return pd.DataFrame(rows, columns=COLUMNS)
