"""The report's cross-simulator tables, read in ten seconds: counts, then what does not agree."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import crosssim

# The order the cells that do not agree are listed in.
ORDER = (crosssim.DIFFER, crosssim.UNDECIDED, crosssim.NOT_JUDGED)


def _sims(cross: pd.DataFrame) -> list[str]:
    """The simulators with columns in the table, the reference first."""
    return [str(c).removesuffix("_mean") for c in cross.columns if str(c).endswith("_mean")]


def _value(mean: Any, low: Any, high: Any, n: Any) -> str:
    """'12.3 [10.1, 14.5] (n=3)'; '' for a side that did not run the cell."""
    if mean == "" or pd.isna(mean):
        return ""
    m = float(mean)
    if low == "" or pd.isna(low) or math.isnan(float(low)):
        return f"{m:.4g} (n={int(float(n))})"
    return f"{m:.4g} [{float(low):.4g}, {float(high):.4g}] (n={int(float(n))})"


def _side(row: Mapping[Any, Any], sim: str) -> str:
    return _value(row[f"{sim}_mean"], row[f"{sim}_ci_low"], row[f"{sim}_ci_high"], row[f"{sim}_n"])


def _percent(value: Any) -> str:
    """A relative half-width as a percent ('' without one)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return ""
    return "" if math.isnan(x) else f"{100 * x:.1f} %"


def view(cross: pd.DataFrame, keys: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the compared cells that do not agree, differ first, with their reasons; the cells one
    simulator ran alone), each one short row per cell and metric."""
    sims = _sims(cross)
    only = cross["how"].astype(str).str.endswith(" only")
    shown = cross[~only & cross["how"].isin(ORDER)].copy()
    shown["_o"] = shown["how"].map({h: i for i, h in enumerate(ORDER)})
    shown = shown.sort_values(["_o", "simulator", "metric", *keys], kind="mergesort")
    rows = []
    for r in shown.to_dict("records"):
        rows.append(
            {
                **{k: r[k] for k in (*keys, "metric", "simulator")},
                **{s: _side(r, s) for s in sims if _side(r, s)},
                "difference": _value(r["diff"], r["diff_low"], r["diff_high"], 0).split(" (")[0],
                "band": f"+-{float(r['band']):.3g}",
                "half-width": _percent(r.get("half_width", "")),
                "how": r["how"],
                "reason": r["reason"],
                "clipped": r.get("clipped", ""),
            }
        )
    extra = [
        {
            **{k: r[k] for k in (*keys, "metric")},
            "ran on": str(r["how"]).removesuffix(" only"),
            "result": next((_side(r, s) for s in sims if _side(r, s)), ""),
            "clipped": r.get("clipped", ""),
        }
        for r in cross[only].to_dict("records")
    ]
    return pd.DataFrame(rows), pd.DataFrame(extra)


def shown(
    study: str,
    tables: Path,
    keys: list[str],
    caption: Callable[[str], str],
    html: Callable[[pd.DataFrame], str],
    open_rows: int,
) -> list[dict[str, Any]]:
    """The cross-simulator tables as the report shows them: the counts, the cells that do not
    agree, one simulator's extra cells (each with its caption), then the published gap."""
    out: list[dict[str, Any]] = []
    path = tables / "cross_sim.csv"
    if not path.is_file():
        return out
    cross = pd.read_csv(path, keep_default_na=False)
    counts = pd.read_csv(tables / "cross_sim_counts.csv", keep_default_na=False)
    notagree, extra = view(cross, keys)
    parts = [
        ("cross_sim_counts", counts),
        ("cross_sim", notagree),
        ("cross_sim_only", extra),
    ]
    gap = tables / "cross_sim_published.csv"
    if gap.is_file():
        parts.append(("cross_sim_published", pd.read_csv(gap, keep_default_na=False)))
    for name, df in parts:
        if df.empty and name == "cross_sim_only":
            continue
        out.append(
            {
                "name": name,
                "heading": HEADINGS[name],
                "caption": caption(name),
                "html": html(df),
                "rows": len(df),
                "open": name == "cross_sim_counts" or len(df) <= open_rows,
            }
        )
    return out


HEADINGS = {
    "cross_sim_counts": "Cross-simulator: counts",
    "cross_sim": "Cross-simulator: cells that differ or are undecided, with reasons",
    "cross_sim_only": "Cross-simulator: queues one simulator ran alone (not compared)",
    "cross_sim_published": "Cross-simulator: each simulator against the published tables",
}
