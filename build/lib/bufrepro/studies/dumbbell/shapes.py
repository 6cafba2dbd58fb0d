"""Shapes that survive an unknown scale: trend and plateau in buffer, ratios between blocks."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit.shapes import Reads, judge, plateau_from, ratio_agrees, trend

METRICS = ("delay", "throughput")
BLOCK = ("queue", "plr", "bottleneck_mbps")
COLUMNS = ("queue", "plr", "bottleneck_mbps", "metric", "shape", "ours", "paper", "agrees")
# Which shapes judge each claim's shape verdict (claims along the plr axis have none here).
CLAIM_SHAPES: Mapping[str, tuple[str, ...]] = {
    "small_buffers_better": ("trend",),
    "flat_from_15": ("plateau_from",),
    "faster_link_more_throughput": ("bandwidth_ratio",),
    "faster_link_less_delay": ("bandwidth_ratio",),
}
CLAIM_METRICS: Mapping[str, tuple[str, ...]] = {
    "faster_link_more_throughput": ("throughput",),
    "faster_link_less_delay": ("delay",),
}


def _common(ours: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    keys = [*BLOCK, "buffer"]
    both = ours[[*keys, *METRICS]].merge(paper[[*keys, *METRICS]], on=keys, suffixes=("_o", "_p"))
    return both.sort_values(keys, kind="mergesort").reset_index(drop=True)


def _row(key: tuple[Any, ...], metric: str, shape: str, o: Any, p: Any, ok: bool) -> dict[str, Any]:
    return {
        **dict(zip(BLOCK, key, strict=True)),
        "metric": metric,
        "shape": shape,
        "ours": o,
        "paper": p,
        "agrees": ok,
    }


def buffer_shapes(both: pd.DataFrame, flat_frac: float) -> list[dict[str, Any]]:
    """Per block and metric: the trend over the buffers and where the plateau starts."""
    rows = []
    for key, g in both.groupby(list(BLOCK), sort=True):
        if len(g) < 2:
            continue
        for m in METRICS:
            t_o, t_p = trend(g[f"{m}_o"], flat_frac), trend(g[f"{m}_p"], flat_frac)
            rows.append(_row(key, m, "trend", t_o, t_p, t_o == t_p))
            p_o = plateau_from(g["buffer"], g[f"{m}_o"], flat_frac)
            p_p = plateau_from(g["buffer"], g[f"{m}_p"], flat_frac)
            rows.append(_row(key, m, "plateau_from", f"{p_o:g}", f"{p_p:g}", p_o == p_p))
    return rows


def bandwidth_ratios(both: pd.DataFrame, shape_frac: float) -> list[dict[str, Any]]:
    """Per (queue, plr, buffer) and step up in bandwidth: ours' and the paper's ratio of each
    metric, agreeing within shape_frac (on the log scale)."""
    rows = []
    for (queue, plr, buffer), g in both.groupby(["queue", "plr", "buffer"], sort=True):
        g = g.sort_values("bottleneck_mbps")
        for (_, lo), (_, hi) in itertools.pairwise(g.iterrows()):
            for m in METRICS:
                r_o = hi[f"{m}_o"] / lo[f"{m}_o"]
                r_p = hi[f"{m}_p"] / lo[f"{m}_p"]
                ok = ratio_agrees(r_o, r_p, shape_frac)
                key = (queue, plr, f"{lo['bottleneck_mbps']:g}->{hi['bottleneck_mbps']:g}")
                row = _row(key, m, "bandwidth_ratio", round(r_o, 4), round(r_p, 4), ok)
                rows.append({**row, "buffer": buffer})
    return rows


def shapes(ours: pd.DataFrame, paper: pd.DataFrame, th: Mapping[str, float]) -> pd.DataFrame:
    """results/dumbbell/tables/shapes.csv: each shape of ours beside the paper's."""
    both = _common(ours, paper)
    rows = buffer_shapes(both, th["flat_frac"]) + bandwidth_ratios(both, th["shape_frac"])
    out = pd.DataFrame(rows, columns=[*COLUMNS, "buffer"])
    out[["ours", "paper"]] = out[["ours", "paper"]].astype(str)
    return out


def _where(r: Mapping[str, Any]) -> str:
    """A shape row's place in the evidence: plr, bandwidth (and buffer, for ratios)."""
    text = f"plr={r['plr']} bw={r['bottleneck_mbps']}"
    return text if pd.isna(r["buffer"]) else f"{text} buffer={r['buffer']:g}"


def shape_verdicts(claims: pd.DataFrame, table: pd.DataFrame, holds_frac: float) -> pd.DataFrame:
    """The claims with shape_verdict and shape_evidence: whether our shapes agree with the
    paper's on what the claim is about (untestable where no shape reads it)."""
    reads = {c: Reads(k, tuple(CLAIM_METRICS.get(c, METRICS))) for c, k in CLAIM_SHAPES.items()}
    return judge(claims, table, reads, holds_frac, scope_col="queue", where=_where)
