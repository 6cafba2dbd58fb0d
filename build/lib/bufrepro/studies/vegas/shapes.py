"""Vegas's shapes beside Tables II-IV: along packet size and RTT, and spacing against standard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit import shapes as kshapes
from bufrepro.kit.shapes import Reads
from bufrepro.studies.vegas.params import KEYS

SPACING = "spacing"  # the axis of the spacing effect: 0 = standard, 1 = spacing
# (setup, axis, metrics, shapes): the series each published table allows.
SERIES: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("packet", "packet_bytes", ("delay", "tput", "ratio"), ("trend", "steps", "low_at")),
    ("rtt", "rtt_ms", ("delay", "tput"), ("trend", "steps", "peak_at")),
    ("packet", SPACING, ("delay", "tput", "eff"), ("trend", "end_ratio")),
)
READS: Mapping[str, Reads] = {
    "spacing_lowers_delay": Reads(("trend", "end_ratio"), ("delay",), (SPACING,)),
    "spacing_raises_throughput": Reads(("trend", "end_ratio"), ("tput",), (SPACING,)),
    "spacing_raises_efficiency": Reads(("trend", "end_ratio"), ("eff",), (SPACING,)),
    "delay_rises_with_packet_size": Reads(("trend", "steps"), ("delay",), ("packet_bytes",)),
    "ratio_falls_until_512": Reads(("steps",), ("ratio",), ("packet_bytes",)),
    "best_packet_512": Reads(("low_at",), ("ratio",), ("packet_bytes",)),
    "delay_rises_with_rtt": Reads(("trend", "steps"), ("delay",), ("rtt_ms",)),
    "rtt_upper_boundary": Reads(("trend", "peak_at"), ("tput",), ("rtt_ms",)),
}


def _axis(cells: pd.DataFrame) -> pd.DataFrame:
    out = cells.copy()
    out[SPACING] = (out["variant"] == "spacing").astype(float)
    return out


def _series(
    ours: pd.DataFrame, paper: pd.DataFrame, scope: str, setup: str, along: str, metric: str
) -> list[kshapes.Series]:
    """Our series of one scope beside the paper's: matched on the setup, the axis and the keys
    the paper fixes by its own rows (variant, packet size, RTT), grouped by the rest of ours."""
    fixed = ["setup", "variant", "packet_bytes", "rtt_ms"]
    if along == SPACING:
        fixed = ["setup", SPACING, "packet_bytes", "rtt_ms"]
    mine = ours[(ours["scope"] == scope) & (ours["setup"] == setup)]
    theirs = paper[(paper["scope"] == scope) & (paper["setup"] == setup)]
    if mine.empty or theirs.empty:
        return []
    both = mine.merge(theirs[[*fixed, metric]], on=fixed, suffixes=("_o", "_p"))
    by = [k for k in (*KEYS, SPACING) if k not in (along, SPACING, "variant") and k != "setup"]
    if along != SPACING:
        by = ["variant", *[k for k in by if k != along]]
    return kshapes.series_of(both, scope, by, along, metric, f"{metric}_o", f"{metric}_p")


def shapes(ours: pd.DataFrame, paper: pd.DataFrame, th: Mapping[str, float]) -> pd.DataFrame:
    """results/vegas/tables/shapes.csv: each shape of ours beside the paper's, per scope."""
    ours, paper = _axis(ours), _axis(paper)
    rows: list[dict[str, Any]] = []
    for scope in sorted(set(paper["scope"])):
        for setup, along, metrics, kinds in SERIES:
            for metric in metrics:
                for s in _series(ours, paper, scope, setup, along, metric):
                    rows += kshapes.shape_rows(s, kinds, th)
    return kshapes.table(rows)


def shape_verdicts(claims: pd.DataFrame, table: pd.DataFrame, holds_frac: float) -> pd.DataFrame:
    """The claims with shape_verdict and shape_evidence (untestable where no shape reads it)."""
    return kshapes.judge(claims, table, READS, holds_frac)
