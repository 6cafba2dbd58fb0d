"""Steady state per cell: the judged windows, the detected transients and the flagged cells."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from bufrepro.kit import prose

WORDS = prose.load(Path(__file__).with_name("steady.yaml"))
# The columns a run records when its parser finds its own transient (awk/hstcp/hstcp.awk).
RECORDED = ("window_start_s", "transient_end_s", "steady_state", "loss_epochs_min")


def recorded(runs: pd.DataFrame) -> bool:
    """Whether the runs record their windows and transients."""
    return all(c in runs for c in RECORDED)


def status(runs: int, unsettled: int, epochs: int, min_epochs: int) -> str:
    """A cell's words: at steady state, not at steady state, or a short window."""
    if unsettled:
        return prose.fill(WORDS["unsettled"], unsettled=unsettled, runs=runs)
    if epochs < min_epochs:
        return prose.fill(WORDS["short"], epochs=epochs, min_epochs=min_epochs)
    return str(WORDS["steady"])


COLUMNS = (
    "runs",
    "settled_runs",
    "window_start_s_mean",
    "window_start_s_max",
    "transient_end_s_max",
    "loss_epochs_min",
    "steady",
)


def cells(runs: pd.DataFrame | None, keys: Sequence[str], min_epochs: int) -> pd.DataFrame:
    """Per cell: its runs, how many settled, the judged window's start (mean and latest), the
    latest detected transient's end, the fewest loss epochs of a flow, and the cell's words
    (no rows when the runs record none of it)."""
    if runs is None or not recorded(runs):
        return pd.DataFrame(columns=[*keys, *COLUMNS])
    rows = []
    for values, g in runs.groupby(list(keys), sort=True):
        vals = values if isinstance(values, tuple) else (values,)
        settled = int((g["steady_state"] == 1).sum())
        epochs = int(g["loss_epochs_min"].min())
        rows.append(
            {
                **dict(zip(keys, vals, strict=True)),
                "runs": len(g),
                "settled_runs": settled,
                "window_start_s_mean": float(g["window_start_s"].mean()),
                "window_start_s_max": float(g["window_start_s"].max()),
                "transient_end_s_max": float(g["transient_end_s"].max()),
                "loss_epochs_min": epochs,
                "steady": status(len(g), len(g) - settled, epochs, min_epochs),
            }
        )
    return pd.DataFrame(rows)


def flags(table: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """The cells' words alone, to merge into a table with the same keys."""
    return table[[*keys, "steady"]]


def by_scope(table: pd.DataFrame, scope: str, label: Sequence[str]) -> dict[str, str]:
    """Per value of column `scope` (e.g. the queue a claim is judged under): whether every cell
    is at steady state, else how many are flagged and which (labelled by the `label` columns)."""
    out: dict[str, str] = {}
    for value, g in table.groupby(scope, sort=True):
        bad = g[g["steady"] != WORDS["steady"]]
        if bad.empty:
            out[str(value)] = str(WORDS["scope_steady"])
            continue
        which = ", ".join(
            " ".join(f"{r[c]:g}" if isinstance(r[c], float) else str(r[c]) for c in label)
            for _, r in bad.iterrows()
        )
        out[str(value)] = prose.fill(
            WORDS["scope_flagged"], flagged=len(bad), cells=len(g), which=which
        )
    return out
