"""The diff of the paper's quantitative claims, and simulation beside model per grid cell."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pandas as pd

from bufrepro.kit import stats
from bufrepro.studies.hstcp.params import KEYS

# Summary metric of each claimed quantity.
CLAIM_METRICS = {"utilization": "link_utilisation", "throughput": "link_utilisation"}
CLAIM_METRICS["loss_rate"] = "loss_rate"
MODEL_COLUMNS = {"link_utilisation": "utilisation", "loss_rate": "loss_rate"}


def claim_cells(row: Mapping[Any, Any], cells: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (scenario, queue) cells a claim of published/hstcp_claims.csv speaks about.

    Its note names the queue and the scenario ("DropTail, 1 Gbps", "RED, 2.5 Gbps") when the
    claim is tied to one figure; otherwise (abstract, conclusion) it covers every cell.
    """
    note = str(row.get("note") or "")
    queue = next((q for q in ("DropTail", "RED") if re.search(rf"\b{q}\b", note)), None)
    scen = "s2" if "2.5 Gbps" in note else ("s1" if "1 Gbps" in note else None)
    return [
        (s, q) for s, q in cells if (queue is None or q == queue) and (scen is None or s == scen)
    ]


def claim_fractions(row: Mapping[Any, Any], fractions: Sequence[float]) -> list[float]:
    """Buffer fractions a claim covers: its own, every one at or above it ('>= 0.1' in the note),
    every one below it (a qualitative claim about smaller buffers), or all (none given)."""
    frac = row.get("buffer_fraction")
    note = str(row.get("note") or "")
    if frac is None or (isinstance(frac, float) and math.isnan(frac)):
        return list(fractions)
    frac = float(frac)
    if ">= " in note and "buffer ratio" in note:
        return [f for f in fractions if f >= frac - 1e-12]
    if "< " in note:
        return [f for f in fractions if f < frac - 1e-12]
    return [f for f in fractions if abs(f - frac) < 1e-9]


def relation_holds(
    relation: str, value: float, claimed: float, quantity: str, th: Mapping[str, float]
) -> bool:
    """Whether `value` satisfies the claim: '>=' literally; '~' and '=' within util_tol (absolute,
    utilisation) or within a factor loss_factor (loss rates, which the paper gives as powers of
    ten)."""
    if math.isnan(value):
        return False
    if relation == ">=":
        return value >= claimed
    if relation == "<=":
        return value <= claimed
    if quantity == "loss_rate":
        return claimed / th["loss_factor"] <= value <= claimed * th["loss_factor"]
    return abs(value - claimed) <= th["util_tol"]


def lookup(df: pd.DataFrame, scen: str, queue: str, frac: float, col: str) -> float:
    """The value of `col` in the row of one cell of a table (NaN without one)."""
    hit = df[
        (df["scenario"] == scen)
        & (df["queue"] == queue)
        & ((df["buffer_frac"] - frac).abs() < 1e-9)
    ]
    return float(hit[col].iloc[0]) if not hit.empty else math.nan


def diff_claims(
    published: pd.DataFrame, summary: pd.DataFrame, model: pd.DataFrame, th: Mapping[str, float]
) -> pd.DataFrame:
    """Each quantitative claim beside our simulated mean (95% CI of the mean, 95% prediction
    interval of one run), z = (claimed - mean) / sd, and the model, per cell."""
    cells = sorted({(s, q) for s, q in zip(summary["scenario"], summary["queue"], strict=True)})
    fractions = sorted(summary["buffer_frac"].unique())
    rows = []
    for idx, claim in enumerate(published.to_dict("records")):
        claimed = claim.get("value")
        if claimed is None or (isinstance(claimed, float) and math.isnan(claimed)):
            continue  # qualitative: a claim of claims.csv, not a row of the diff
        metric = CLAIM_METRICS[str(claim["quantity"])]
        targets = [
            (s, q, f)
            for s, q in claim_cells(claim, cells)
            for f in claim_fractions(claim, fractions)
        ]
        if not targets:
            targets = [(math.nan, math.nan, math.nan)]  # type: ignore[list-item]
        for scen, queue, frac in targets:
            sub = summary[
                (summary["scenario"] == scen)
                & (summary["queue"] == queue)
                & ((summary["buffer_frac"] - frac).abs() < 1e-9)
                & (summary["metric"] == metric)
            ]
            mean = float(sub["mean"].iloc[0]) if not sub.empty else math.nan
            low = float(sub["ci_low"].iloc[0]) if not sub.empty else math.nan
            high = float(sub["ci_high"].iloc[0]) if not sub.empty else math.nan
            n = int(sub["n"].iloc[0]) if not sub.empty else 0
            sd = float(sub["sd"].iloc[0]) if not sub.empty else math.nan
            half = stats.prediction_half_width(sd, n)
            mod = (
                lookup(model, scen, queue, frac, MODEL_COLUMNS[metric])
                if not sub.empty
                else math.nan
            )
            rel = str(claim["relation"])
            rows.append(
                {
                    "seed_file": claim["seed_file"],
                    "row": idx + 1,
                    "section": claim["section"],
                    "quantity": claim["quantity"],
                    "relation": rel,
                    "published": float(claimed),
                    "scenario": scen,
                    "queue": queue,
                    "buffer_frac": frac,
                    "metric": metric,
                    "ours_mean": mean,
                    "ci_low": low,
                    "ci_high": high,
                    "pi_low": mean - half,
                    "pi_high": mean + half,
                    "ours_sd": sd,
                    "ours_n": n,
                    "model": mod,
                    "abs_diff": mean - float(claimed),
                    "rel_diff": (mean - float(claimed)) / float(claimed),
                    "z": stats.standardized_residual(float(claimed), mean, sd),
                    "in_ci": bool(low <= float(claimed) <= high),
                    "in_pi": bool(mean - half <= float(claimed) <= mean + half),
                    "sim_agrees": relation_holds(
                        rel, mean, float(claimed), str(claim["quantity"]), th
                    ),
                    "model_agrees": relation_holds(
                        rel, mod, float(claimed), str(claim["quantity"]), th
                    ),
                    "has_counterpart": not math.isnan(mean),
                }
            )
    return pd.DataFrame(rows)


def model_vs_sim(summary: pd.DataFrame, model: pd.DataFrame) -> pd.DataFrame:
    """Per grid cell: simulated utilisation and loss (mean, 95% CI) beside the model's."""
    rows = []
    for key, g in summary.groupby(list(KEYS), sort=True):
        scen, queue, frac = str(key[0]), str(key[1]), float(cast(float, key[2]))
        row: dict[str, Any] = {"scenario": scen, "queue": queue, "buffer_frac": frac}
        for metric, col in MODEL_COLUMNS.items():
            m = g[g["metric"] == metric]
            mean = float(m["mean"].iloc[0]) if not m.empty else math.nan
            mod = lookup(model, scen, queue, frac, col)
            row[f"sim_{col}"] = mean
            row[f"sim_{col}_ci_low"] = float(m["ci_low"].iloc[0]) if not m.empty else math.nan
            row[f"sim_{col}_ci_high"] = float(m["ci_high"].iloc[0]) if not m.empty else math.nan
            row[f"model_{col}"] = mod
            row[f"diff_{col}"] = mean - mod
        rows.append(row)
    return pd.DataFrame(rows)


def with_flows_axis(table: pd.DataFrame, ratios: Mapping[str, float]) -> pd.DataFrame:
    """The table with buffer_frac_flows_bdp beside buffer_frac: the buffer as a fraction of the
    flows' BDP at their mean RTT (the second BDP axis; NaN where the scenario is unknown)."""
    if table.empty or "buffer_frac" not in table:
        return table
    out = table.copy()
    second = [
        float(f) * ratios[str(s)] if str(s) in ratios else math.nan
        for s, f in zip(out["scenario"], out["buffer_frac"], strict=True)
    ]
    out.insert(list(out.columns).index("buffer_frac") + 1, "buffer_frac_flows_bdp", second)
    return out
