"""Ramya's shapes beside Tables 1 and 5: trends, plateau onset, end ratios and peaks in buffer."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from bufrepro.kit import shapes as kshapes
from bufrepro.kit.shapes import Reads
from bufrepro.studies.ramya.params import READING

# Metrics of the claim cells (claims.our_claim_cells / paper_claim_cells), and power = tput / rtt.
METRICS = ("tput", "rtt", "drop_share", "power")
SHAPES = ("trend", "plateau_from", "end_ratio", "peak_at")
# Which shapes (and metrics) judge each claim's shape: the claim's own scale-free content.
READS: Mapping[str, Reads] = {
    # "slightly": the end ratio of goodput, not only its direction.
    "goodput_falls_slightly": Reads(("trend", "end_ratio"), ("tput",)),
    # "sharply": the end ratio of the RTT.
    "rtt_grows_sharply": Reads(("trend", "end_ratio"), ("rtt",)),
    # The knee: where throughput stops changing.
    "optimum_3_to_6": Reads(("plateau_from",), ("tput",)),
    "optimum_3_to_6_power": Reads(("peak_at",), ("power",)),
    # The drop share largest at the smallest buffer, and the throughput it costs.
    "tolerates_2pct_drops": Reads(("peak_at", "trend"), ("drop_share",)),
}


def _with_power(cells: pd.DataFrame) -> pd.DataFrame:
    out = cells.copy()
    out["power"] = out["tput"] / out["rtt"]
    return out


def shapes(ours: pd.DataFrame, paper: pd.DataFrame, th: Mapping[str, float]) -> pd.DataFrame:
    """results/ramya/tables/shapes.csv: per scope with a published table and per reading of
    ours, each shape over the buffers both sides have, ours beside the paper's."""
    ours, paper = _with_power(ours), _with_power(paper)
    rows = []
    for scope in sorted(set(paper["scope"])):
        theirs = paper[paper["scope"] == scope][["buffer", *METRICS]]
        mine = ours[ours["scope"] == scope]
        if mine.empty:
            continue
        both = mine[[*READING, "buffer", *METRICS]].merge(
            theirs, on="buffer", suffixes=("_o", "_p")
        )
        for metric in METRICS:
            for series in kshapes.series_of(
                both, scope, READING, "buffer", metric, f"{metric}_o", f"{metric}_p"
            ):
                rows += kshapes.shape_rows(series, SHAPES, th)
    return kshapes.table(rows)


def shape_verdicts(claims: pd.DataFrame, table: pd.DataFrame, holds_frac: float) -> pd.DataFrame:
    """The claims with shape_verdict and shape_evidence (untestable where no shape reads it)."""
    return kshapes.judge(claims, table, READS, holds_frac)
