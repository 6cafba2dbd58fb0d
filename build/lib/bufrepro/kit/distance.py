"""Distances between our means and published values: median |log ratio| per metric, splits."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd


def log_errors(diff: pd.DataFrame) -> pd.Series:
    """|log(ours / published)| per diff row; NaN where either is missing or not positive."""
    ours = pd.to_numeric(diff["ours_mean"], errors="coerce")
    paper = pd.to_numeric(diff["published"], errors="coerce")
    ok = (ours > 0) & (paper > 0)
    out = pd.Series(np.nan, index=diff.index, dtype=float)
    out[ok] = np.abs(np.log(ours[ok] / paper[ok]))
    return out


def distance(diff: pd.DataFrame, metrics: Sequence[str]) -> float:
    """The mean over metrics of each metric's median |log(ours / published)|; NaN if none."""
    errors = log_errors(diff)
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
    diff: pd.DataFrame, metrics: Sequence[str], train: Mapping[str, Sequence[Any]]
) -> tuple[float, float]:
    """(train distance, validation distance) of one reading's diff."""
    mask = train_mask(diff, train)
    return distance(diff[mask], metrics), distance(diff[~mask], metrics)
