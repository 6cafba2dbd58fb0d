"""The diff as the reader's tables: one per published table, in its layout, each cell coloured."""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd
from markupsafe import Markup, escape

from bufrepro.pipeline.evidence import MIN_SEEDS
from bufrepro.pipeline.summary import STATUS_TEXT, pct, with_status

# Columns of a diff that hold results or bookkeeping, never a row's label in the printed table.
RESULT_COLUMNS = frozenset(
    {
        "seed_file",
        "table",
        "published_column",
        "metric",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "ours_n",
        "abs_diff",
        "rel_diff",
        "in_ci",
        "has_counterpart",
        "model",
        "sim_agrees",
        "model_agrees",
        "matches_printed",
        "pi_low",
        "pi_high",
        "in_pi",
        "z",
        "note",
        "status",
        "ci_clipped",
        "quote",
    }
)
# Diffs from more rows than this start folded (their counts stay in the summary line).
OPEN_ROWS = 30


def readable(name: str) -> str:
    """A column or file name as words: 'bottleneck_mbps' -> 'Bottleneck (Mb/s)'."""
    units = {"mbps": "Mb/s", "kbps": "kb/s", "ms": "ms", "s": "s", "pkts": "packets", "bps": "B/s"}
    words = {
        "plr": "PLR",
        "rtt": "RTT",
        "bdp": "BDP",
        "tcp": "TCP",
        "twoflow": "two-flow",
        "droptail": "DropTail",
        "red": "RED",
        "s1": "scenario 1",
        "s2": "scenario 2",
        "sim": "simulation",
        "rwnd": "receive window",
    }
    parts = name.split("_")
    unit = units.get(parts[-1].lower()) if len(parts) > 1 else None
    core = parts[:-1] if unit else parts
    text = " ".join(words.get(p.lower(), p) for p in core)
    text = re.sub(r"\bfig(\d+)\b", r"Fig. \1", text)
    text = re.sub(r"\btable(\d+)\b", r"Table \1", text)
    text = text[:1].upper() + text[1:]
    return f"{text} ({unit})" if unit else text


def _float(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def num(v: Any, digits: int = 4) -> str:
    """A number with `digits` significant digits; '' for missing."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return "" if v is None else str(v)
    return "" if math.isnan(f) else f"{f:.{digits}g}"


def label(v: Any) -> str:
    """A row label as printed: numbers without trailing zeros, up to 9 digits."""
    if isinstance(v, float):
        return "" if math.isnan(v) else f"{v:.9g}"
    return str(v)


def cell_html(row: Mapping[Any, Any]) -> Markup:
    """Published beside ours ± CI half-width with n, a status word and a clipped-CI mark."""
    st = row["status"]
    pub = f'<span class="pub">{escape(num(row.get("published")))}</span>'
    if st == "notrun":
        ours = '<span class="ours">not run</span>'
    elif st in ("matches", "differs"):
        ours = f'<span class="ours">computed {escape(num(row.get("ours_mean")))}</span>'
    else:
        half = (float(row["ci_high"]) - float(row["ci_low"])) / 2
        n = int(float(row["ours_n"]))
        ours = f'<span class="ours">{escape(num(row["ours_mean"]))}'
        ours += f" ± {escape(num(half, 2))}" if not math.isnan(half) else ""
        rel = pct(_float(row.get("rel_diff")), signed=True)
        ours += f" <small>n={n} {escape(rel)}</small></span>"
    mark = (
        ' <abbr class="clip" title="the CI reaches past a physical bound: too wide to mean much">'
        "clipped</abbr>"
        if row.get("ci_clipped") and st not in ("notrun", "matches", "differs")
        else ""
    )
    pi = ""
    if str(row.get("in_pi")) in ("True", "False") and st not in ("notrun", "matches", "differs"):
        pi = (
            " <small>in PI</small>" if str(row["in_pi"]) == "True" else " <small>outside PI</small>"
        )
    title = escape(STATUS_TEXT[st])
    return Markup(f'<td class="st-{st}" title="{title}">{pub}<br>{ours}{mark}{pi}</td>')


def _label_columns(part: pd.DataFrame, column_key: str) -> tuple[list[str], dict[str, str]]:
    """Row-label columns that vary (in order), and the constant ones as {column: value}."""
    labels, constant = [], {}
    for c in part.columns:
        if c in RESULT_COLUMNS or c in (column_key, "block"):
            continue
        values = part[c].dropna().unique()
        if len(values) == 0:
            continue
        if len(values) == 1 and c not in ("row",):
            constant[c] = label(values[0])
        else:
            labels.append(c)
    return labels, constant


def layout_table(part: pd.DataFrame) -> dict[str, Any]:
    """One published table: rows as printed (its row labels), columns its printed columns."""
    column_key = "published_column" if "published_column" in part else "metric"
    labels, constant = _label_columns(part, column_key)
    columns = list(dict.fromkeys(part[column_key].astype(str)))
    rows = []
    grouped = part.groupby(labels, sort=False, dropna=False) if labels else [((), part)]
    for key, rows_part in grouped:
        key_values = key if isinstance(key, tuple) else (key,)
        cells = {str(r[column_key]): cell_html(r) for r in rows_part.to_dict("records")}
        rows.append(
            {
                "labels": [label(v) for v in key_values],
                "cells": [cells.get(c, Markup('<td class="st-none"></td>')) for c in columns],
            }
        )
    counts = part["status"].value_counts()
    return {
        "label_names": [readable(c) for c in labels],
        "columns": [readable(c) for c in columns],
        "rows": rows,
        "constant": ", ".join(f"{readable(k)} = {v}" for k, v in constant.items()),
        "counts": ", ".join(
            f"{int(counts[s])} {STATUS_TEXT[s]}" for s in STATUS_TEXT if s in counts.index
        ),
        "open": bool((part["status"] != "notrun").any()) and len(rows) <= OPEN_ROWS,
    }


def diff_tables(diff: pd.DataFrame, study: str) -> list[dict[str, Any]]:
    """One reader's table per published table (and block), in the paper's order."""
    diff = with_status(diff)
    group = [c for c in ("table", "block") if c in diff and diff[c].notna().any()]
    parts = diff.groupby(group, sort=False, dropna=False) if group else [((study,), diff)]
    out = []
    for key, part in parts:
        names = [str(k) for k in (key if isinstance(key, tuple) else (key,)) if str(k) != "nan"]
        out.append({"title": " / ".join(names) or "published values", **layout_table(part)})
    # Only the first table with values we ran starts open; the others show their counts.
    first_open = next((i for i, t in enumerate(out) if t["open"]), None)
    for i, t in enumerate(out):
        t["open"] = i == first_open
    return out


def csv_data_uri(diff: pd.DataFrame) -> str:
    """The full diff with each value's status as a data: URI (the report stays one file)."""
    out = with_status(diff)
    out["status"] = out["status"].map(STATUS_TEXT)
    text = out.to_csv(index=False, lineterminator="\n")
    return "data:text/csv;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def legend() -> list[dict[str, str]]:
    """The status classes and their words, for the legend under the summary."""
    return [{"cls": f"st-{k}", "text": v} for k, v in STATUS_TEXT.items()]


def status_note() -> str:
    """How a cell reads."""
    return (
        "Each cell: the published value, then ours: mean ± 95% CI half-width over n seeds and the "
        f"relative difference. Values from fewer than {MIN_SEEDS} seeds are not called inside or "
        "outside their CI; 'clipped' marks a CI reaching past a physical bound "
        "(negative delay or rate, utilisation or loss outside [0, 1])."
    )
