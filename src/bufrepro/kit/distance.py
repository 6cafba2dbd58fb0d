"""Distances between our means and published values: per-row log errors, medians, splits."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Rule:
    """How one metric's rows are scored: its threshold (a log error), the factor a published
    value is given within (a power of ten: 3), and one event per run in the metric's units (the
    smoothing added to both sides, so that a zero counts; 0: a zero is censored, see below)."""

    threshold: float = math.log1p(0.25)
    factor: float = 1.0
    event: float = 0.0


PLAIN = Rule()


def errors(
    ours: np.ndarray, paper: np.ndarray, event: np.ndarray, factor: np.ndarray, met: np.ndarray
) -> np.ndarray:
    """Row errors from arrays (broadcast; `met`: a ">=" or "<=" row whose relation holds):
    |log((ours + e) / (published + e))| less ln(factor), at least 0; 0 where met; a zero or
    negative side censored (+inf, or 0 when both sides are equal); NaN where a side is NaN."""
    a, b = ours + event, paper + event
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.abs(np.log(np.where((a > 0) & (b > 0), a / b, 1.0))) - np.log(factor)
    out = np.where((a > 0) & (b > 0), np.maximum(0.0, ratio), np.where(a == b, 0.0, np.inf))
    out = np.where(met, 0.0, out)
    return np.where(np.isnan(a) | np.isnan(b), np.nan, out)


def row_rules(diff: pd.DataFrame, rules: Mapping[str, Rule] | None) -> tuple[np.ndarray, ...]:
    """Per row: its metric's event and factor, and whether it is a one-sided ("<=" / ">=") row
    (+1: at least, -1: at most, 0: two-sided)."""
    rules = rules or {}
    metric = diff["metric"].astype(str)
    event = metric.map(lambda m: rules.get(m, PLAIN).event).to_numpy(dtype=float)
    factor = metric.map(lambda m: rules.get(m, PLAIN).factor).to_numpy(dtype=float)
    rel = diff["relation"].astype(str) if "relation" in diff else pd.Series("", index=diff.index)
    side = rel.map({">=": 1.0, "<=": -1.0}).fillna(0.0).to_numpy(dtype=float)
    return event, factor, side


def log_errors(diff: pd.DataFrame, rules: Mapping[str, Rule] | None = None) -> pd.Series:
    """Each row's error (errors()): a zero counts, smoothed by one event per run where the
    metric's rule declares one, else censored (+inf); NaN only where a side is missing."""
    ours = pd.to_numeric(diff["ours_mean"], errors="coerce").to_numpy(dtype=float)
    paper = pd.to_numeric(diff["published"], errors="coerce").to_numpy(dtype=float)
    event, factor, side = row_rules(diff, rules)
    met = ((side > 0) & (ours >= paper)) | ((side < 0) & (ours <= paper))
    return pd.Series(errors(ours, paper, event, factor, met), index=diff.index, dtype=float)


def unique_rows(diff: pd.DataFrame, cells: Sequence[str]) -> pd.DataFrame:
    """The diff with repeated published rows counted once: the first of the rows of one cell,
    metric, published value and relation (a claim the paper states twice is one value)."""
    keys = [c for c in (*cells, "metric", "published", "relation") if c in diff]
    return diff[~diff[keys].astype(str).duplicated(keep="first")]


def distance(
    diff: pd.DataFrame, metrics: Sequence[str], rules: Mapping[str, Rule] | None = None
) -> float:
    """The mean over metrics of each metric's median row error (log_errors); NaN if none."""
    errors = log_errors(diff, rules)
    medians = [float(errors[diff["metric"] == m].median()) for m in metrics]
    kept = [m for m in medians if not math.isnan(m)]
    return float(np.mean(kept)) if kept else math.nan


def percent(d: float) -> float:
    """A log distance as a relative error in percent: 100 (e^d - 1)."""
    return 100.0 * math.expm1(d)


def _matches(cell: Any, wanted: Sequence[Any]) -> bool:
    """A cell matches a wanted value when equal, or (text) when it starts with it as a whole word
    ("000" matches "000_ab12.txt"; "Table II" does not match "Table III")."""
    return any(cell == w or (isinstance(cell, str) and _starts(cell, str(w))) for w in wanted)


def _starts(text: str, prefix: str) -> bool:
    """text starts with prefix, and the prefix ends a word there (no letter or digit follows)."""
    return text.startswith(prefix) and not text[len(prefix) : len(prefix) + 1].isalnum()


def train_mask(diff: pd.DataFrame, train: Mapping[str, Sequence[Any]]) -> pd.Series:
    """True for the training rows: those whose column (table, block or seed_file) matches."""
    ((column, wanted),) = train.items()
    if column not in diff:
        raise KeyError(f"the diff has no column {column!r} to split training rows by")
    return diff[column].map(lambda c: _matches(c, list(wanted))).astype(bool)


def split_distances(
    diff: pd.DataFrame,
    metrics: Sequence[str],
    train: Mapping[str, Sequence[Any]],
    rules: Mapping[str, Rule] | None = None,
) -> tuple[float, float]:
    """(train distance, validation distance) of one reading's diff."""
    mask = train_mask(diff, train)
    return distance(diff[mask], metrics, rules), distance(diff[~mask], metrics, rules)


def unidentifiable(
    diff: pd.DataFrame,
    train: Mapping[str, Sequence[Any]],
    acts_on: Mapping[str, Mapping[str, Sequence[Any]]],
) -> list[str]:
    """The parameters no training row can move: those declared to act only on some cells
    (acts_on: {parameter: {cell key: values}}) where no training row of the diff lies."""
    rows = diff[train_mask(diff, train)]
    out = []
    for key, where in acts_on.items():
        hit = pd.Series(True, index=rows.index)
        for column, wanted in where.items():
            if column not in rows:
                continue  # the diff does not say which cells its rows are: no evidence either way
            hit &= rows[column].map(lambda c, w=list(wanted): _matches(c, w)).astype(bool)
        if not hit.any():
            out.append(key)
    return out
