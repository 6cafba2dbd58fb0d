"""How precise each cell's numbers are: every margin metric's half-width against its target."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd

from bufrepro.kit import crosssim, precision
from bufrepro.pipeline.crosssim import margins

# A metric's precision target is this share of its agreement margin (pipeline/margins.yaml, each
# from the claims that read the metric): two sides whose intervals are each at most half the
# margin wide can show agreement (their difference's interval, about sqrt(2) times as wide,
# fits inside +-margin when the means differ by less than about 0.3 of it), and a claim judged
# at that margin is not left undecided by the spread alone.
SHARE = 0.5
REASON = "half the agreement margin of pipeline/margins.yaml"
COLUMNS = ("metric", "kind", "runs", "mean", "half_width", "target", "reached", "more_runs")


def target_of(margin: crosssim.Margin, mean_events: float) -> precision.Target:
    """The target a margin implies: absolute and relative margins keep their kind; counts and
    rates become an events target on their pooled events, unless the margin's floor (events a
    run) sets the band at this mean, where the target is half the floor a run, absolute."""
    value = SHARE * margin.value
    if margin.kind in ("absolute", "relative"):
        return precision.Target(margin.kind, value, REASON)
    if margin.floor and mean_events * margin.value < margin.floor:
        return precision.Target("absolute", SHARE * margin.floor, REASON + " (its floor)")
    return precision.Target("events", value, REASON)


def _values(g: pd.DataFrame, metric: str, margin: crosssim.Margin) -> list[float]:
    """The per-run values the target reads: the metric's, or for a rate its events a run."""
    if margin.kind == "rate" and margin.events and all(e in g for e in margin.events):
        return [float(v) for v in g[list(margin.events)].sum(axis=1)]
    return [float(v) for v in g[metric]]


def table(
    runs: pd.DataFrame, keys: Sequence[str], targets: Mapping[str, crosssim.Margin]
) -> pd.DataFrame:
    """Per cell and margin metric: the runs, the mean, the achieved half-width in the target's
    terms (relative, absolute, or of the pooled events), the target, whether it is reached and
    the runs still needed at the observed spread (kit.precision)."""
    rows = []
    present = [m for m in targets if m in runs]
    if not present or runs.empty:
        return pd.DataFrame(columns=[*keys, *COLUMNS])
    for values, g in runs.groupby(list(keys), sort=True, dropna=False):
        vals = values if isinstance(values, tuple) else (values,)
        for metric in present:
            margin = targets[metric]
            per_run = _values(g, metric, margin)
            clean = [v for v in per_run if not math.isnan(v)]
            mean_events = sum(clean) / len(clean) if clean else 0.0
            goal = target_of(margin, mean_events)
            half = goal.half_width(per_run)
            rows.append(
                {
                    **dict(zip(keys, vals, strict=True)),
                    "metric": metric,
                    "kind": goal.kind,
                    "runs": len(clean),
                    "mean": float(g[metric].mean()),
                    "half_width": half,
                    "target": goal.value,
                    "reached": bool(half <= goal.value),
                    "more_runs": goal.more_runs(per_run),
                }
            )
    return pd.DataFrame(rows)


def study_table(study: str, runs: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """table() with the study's margins (margins.yaml)."""
    return table(runs, keys, margins(study))
