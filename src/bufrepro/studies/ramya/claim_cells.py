"""The ramya claims' cells: ours per claim scope with per-seed samples, and the paper's points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit import samples
from bufrepro.kit.study import Block
from bufrepro.studies.ramya.cells import TABLES, cells, published_wide, reading_of
from bufrepro.studies.ramya.params import KEYS, READING

# Suffix of the claim scopes that check every reading of a table's setup, not only the diffed one.
ALL = ", all readings"
# Run lengths the paper states for its tables (for the paper's own drop shares).
PAPER_DURATION_S = {"Table 1": 1000.0, "Table 5": 180.0}


def _is_reading(df: pd.DataFrame, reading: Mapping[str, Any]) -> pd.DataFrame:
    """The rows of `df` that belong to `reading` (setup, tcp, B2, rwnd, delays)."""
    keep = df["setup"] == reading["setup"]
    for key in READING:
        keep &= df[key] == reading[key]
    out: pd.DataFrame = df[keep]
    return out


def our_claim_cells(
    block: Block, summary: pd.DataFrame, runs: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Our cell means per claim scope, with the columns the checks read; given our per-seed
    `runs`, each column's Sample beside its mean (`<col>_seeds`, the claims' tests).

    "Table 1" and "Table 5" hold the reading each table is diffed against (ramya.readings);
    "Table 1, all readings" and "Table 5, all readings" every reading of that setup we ran.
    """
    wide = cells(summary)
    per_seed = _per_seed(runs)
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
        for col, metric, unit in (
            ("tput", tput, 1.0),
            ("rtt", rtt, scale),
            ("drop_share", "tcp_loss_rate", 1.0),
        ):
            got = per_seed.get(metric, {})
            keys = [tuple(k) for k in _keyed(sub).itertuples(index=False)]
            part[f"{col}_seeds"] = pd.Series(
                [got[k].scaled(unit) if k in got else None for k in keys],
                index=part.index,
                dtype=object,
            )
        parts.append(part)
    if not parts:
        return pd.DataFrame(columns=[*KEYS, "scope", "tput", "rtt", "drops", "drop_share"])
    return pd.concat(parts, ignore_index=True)


def _keyed(frame: pd.DataFrame) -> pd.DataFrame:
    """The grid keys of `frame`, a key the grid leaves empty (nan) as "-" (a cell's name)."""
    return frame[list(KEYS)].astype(object).where(frame[list(KEYS)].notna(), "-")


def _per_seed(runs: pd.DataFrame | None) -> dict[str, dict[Any, samples.Sample]]:
    """Per metric the claims read, each cell's Sample by seed ({} without runs)."""
    if runs is None or runs.empty:
        return {}
    runs = runs.copy()
    if "tcp_goodput_kbps" in runs and "tcp_goodput_Bps" not in runs:
        runs["tcp_goodput_Bps"] = runs["tcp_goodput_kbps"] * 125.0  # cells.with_derived's
    metrics = ("tcp_goodput_Bps", "tcp_throughput_kbps", "tcp_rtt_s_mean", "ping_rtt_ms_mean")
    runs[list(KEYS)] = _keyed(runs)
    return {m: samples.of_runs(runs, KEYS, m) for m in (*metrics, "tcp_loss_rate") if m in runs}


def paper_claim_cells(block: Block, published: pd.DataFrame) -> pd.DataFrame:
    """The paper's Tables 1 and 5 with the columns the checks read.

    The drop share needs the packets sent, which the paper does not print: drops / (drops +
    packets delivered), delivered = goodput x duration / MSS (Table 1) or throughput x duration
    / (MSS + headers) (Table 5), with the paper's durations (1000 s, 180 s) and our sizes.
    """
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
            points = {
                f"{c}_seeds": samples.Sample.published(v)
                for c, v in (
                    ("tput", tput),
                    ("rtt", rtt),
                    ("drop_share", drops / (drops + delivered)),
                )
            }
            row = {
                **points,
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
