"""Hstcp's shapes: the simulated utilisation curve beside the model's, on both BDP axes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from bufrepro.kit import shapes as kshapes
from bufrepro.kit.shapes import Reads
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.claims import _cells, _curve
from bufrepro.studies.hstcp.params import axis_ratios

FULL = "buffer_frac"
FLOWS = "flows_bdp_frac"
BELOW = "buffer_frac below 0.1"
FROM = "buffer_frac 0.1 and above"
# (axis, which fractions, shapes): the R1-R2 BDP axis whole and split at 0.1, and the flows' BDP
# axis (where only the plateau onset moves: the other shapes do not depend on the axis's unit).
AXES: tuple[tuple[str, Callable[[float], bool], tuple[str, ...]], ...] = (
    (FULL, lambda f: True, ("trend", "steps", "plateau_from", "end_ratio")),
    (FLOWS, lambda f: True, ("plateau_from",)),
    (BELOW, lambda f: f < 0.1 - 1e-9, ("trend", "end_ratio")),
    (FROM, lambda f: f >= 0.1 - 1e-9, ("trend", "plateau_from", "end_ratio")),
)
CURVE = ("trend", "steps", "plateau_from", "end_ratio")
READS: Mapping[str, Reads] = {
    # Where utilisation stops rising: the scale-free side of "90 % at 10 %, 98 % at 20 %".
    "util_90_at_10": Reads(("plateau_from",), (), (FULL,)),
    "util_98_at_20": Reads(("plateau_from",), (), (FULL,)),
    "util_90_at_10_flows_bdp": Reads(("plateau_from",), (), (FLOWS,)),
    "util_98_at_20_flows_bdp": Reads(("plateau_from",), (), (FLOWS,)),
    # How far utilisation falls from the largest to the smallest buffer, step by step.
    "sharp_fall_below_10": Reads(("steps", "end_ratio"), (), (FULL,)),
    "sharp_fall_below_10_flows_bdp": Reads(("steps", "end_ratio"), (), (FULL,)),
    "model_sim_agree_below_10": Reads(CURVE, (), (BELOW,)),
    "model_sim_agree_from_10": Reads(CURVE, (), (FROM,)),
}


def shapes(block: Block, summary: pd.DataFrame, model: pd.DataFrame) -> pd.DataFrame:
    """results/hstcp/tables/shapes.csv: per queue and scenario, each shape of the simulated
    utilisation curve beside the model's (the `paper` column: the paper prints no table), on the
    buffer fractions both have."""
    th = dict(block["claims"])
    cells = _cells(summary)
    mcells = model[model["on_grid"]] if "on_grid" in model else model
    mcells = mcells.rename(columns={"utilisation": "u"})
    ratio = axis_ratios(block)
    keys = sorted(
        {(str(s), str(q)) for s, q in zip(cells["scenario"], cells["queue"], strict=True)}
    )
    rows: list[dict[str, Any]] = []
    for scen, queue in keys:
        sim = dict(_curve(cells, scen, queue, "link_utilisation"))
        mod = dict(_curve(mcells, scen, queue, "u"))
        common = sorted(set(sim) & set(mod))
        for axis, keep, kinds in AXES:
            xs = [f for f in common if keep(f)]
            scale = ratio.get(scen, 1.0) if axis == FLOWS else 1.0
            series = kshapes.Series(
                queue,
                f"scenario={scen}",
                axis,
                "utilisation",
                tuple(round(f * scale, 6) for f in xs),
                tuple(sim[f] for f in xs),
                tuple(mod[f] for f in xs),
            )
            rows += kshapes.shape_rows(series, kinds, th)
    return kshapes.table(rows)


def shape_verdicts(claims: pd.DataFrame, table: pd.DataFrame, holds_frac: float) -> pd.DataFrame:
    """The claims with shape_verdict and shape_evidence: the simulated curve's shapes against the
    model's (untestable where no shape reads the claim, e.g. the fairness claim)."""
    return kshapes.judge(claims, table, READS, holds_frac)
