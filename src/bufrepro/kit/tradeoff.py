"""The delay-throughput trade-off of several queues: one panel per setting, a line per queue."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter

from bufrepro.kit.figures import plt

# One colour per queue discipline, the papers' two first; others gray.
PALETTE = {
    "DropTail": "#1f77b4",
    "RED": "#d62728",
    "CoDel": "#2ca02c",
    "PIE": "#9467bd",
    "FQ-CoDel": "#ff7f0e",
    # the same AQM with its targets scaled to the link: its colour's lighter shade
    "CoDel-scaled": "#98df8a",
    "PIE-scaled": "#c5b0d5",
    "FQ-CoDel-scaled": "#ffbb78",
}
# Marker area (points^2) of the smallest and the largest buffer; buffers between by rank.
SIZES = (12.0, 90.0)


def _minor(value: float, _pos: int) -> str:
    """A minor tick of a log axis: labelled at 2 and 5 times a power of ten only."""
    text = f"{value:g}"
    return text if text.lstrip("0.")[:1] in ("2", "5") else ""


def _bars(q: pd.DataFrame, column: str, centre: str) -> list[list[float]] | None:
    """Error bars (below, above) of `centre` from <column>_low/_high; None without them."""
    low, high = f"{column}_low", f"{column}_high"
    if low not in q or high not in q:
        return None
    below = (q[centre] - q[low]).clip(lower=0).fillna(0)
    above = (q[high] - q[centre]).clip(lower=0).fillna(0)
    return [list(below), list(above)]


def _points(
    ax: Any, q: pd.DataFrame, rate: str, colour: str, sizes: list[float], hollow: bool
) -> None:
    """One queue's line of (rate, delay) points, with each point's intervals as bars."""
    ax.plot(q[rate], q["delay"], color=colour, lw=1, alpha=0.7, ls="--" if hollow else "-")
    ax.errorbar(
        q[rate],
        q["delay"],
        xerr=_bars(q, rate, rate),
        yerr=_bars(q, "delay", "delay"),
        fmt="none",
        ecolor=colour,
        elinewidth=0.6,
        alpha=0.6,
    )
    ax.scatter(
        q[rate],
        q["delay"],
        s=sizes,
        color="white" if hollow else colour,
        edgecolors=colour if hollow else "black",
        linewidths=0.8 if hollow else 0.3,
        zorder=3,
    )


def delay_vs_throughput(cells: pd.DataFrame, axes: Mapping[str, str]) -> Figure:
    """Mean delay (log axis) against mean throughput, one panel per `panel`, one line per queue
    through its buffers in order, the marker growing with the buffer.

    `cells` has columns panel, queue, buffer, throughput, delay (one row per cell), and may
    have goodput (drawn hollow beside throughput, dashed) and <column>_low/_high (95 %
    intervals, drawn as bars); `axes` the labels of throughput and delay, and the legend's title
    (legend). Panels keep their first appearance's order, queues PALETTE's (others after it).
    """
    sns.set_theme(style="whitegrid", context="paper")
    panels = list(dict.fromkeys(cells["panel"]))
    seen = list(dict.fromkeys(cells["queue"]))
    queues = [q for q in PALETTE if q in seen] + [q for q in seen if q not in PALETTE]
    buffers = sorted(cells["buffer"].unique())
    step = (SIZES[1] - SIZES[0]) / max(1, len(buffers) - 1)
    size = {b: SIZES[0] + i * step for i, b in enumerate(buffers)}
    ncols = min(len(panels), 2)
    nrows = -(-len(panels) // ncols)
    fig, grid = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.2 * nrows + 0.8), squeeze=False)
    for k, panel in enumerate(panels):
        ax = grid[k // ncols][k % ncols]
        sub = cells[cells["panel"] == panel]
        for queue in queues:
            q = sub[sub["queue"] == queue].sort_values("buffer")
            if q.empty:
                continue
            colour = PALETTE.get(str(queue), "gray")
            for rate, hollow in (("throughput", False), ("goodput", True)):
                if rate not in q:
                    continue
                _points(ax, q, rate, colour, [size[b] for b in q["buffer"]], hollow)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
        ax.yaxis.set_minor_formatter(FuncFormatter(_minor))
        ax.tick_params(labelsize=7)
        ax.set_title(str(panel), fontsize=8)
        ax.set_xlabel(axes["throughput"], fontsize=8)
        ax.set_ylabel(axes["delay"], fontsize=8)
    for k in range(len(panels), nrows * ncols):
        grid[k // ncols][k % ncols].set_visible(False)
    handles = [
        Line2D([], [], color=PALETTE.get(str(q), "gray"), marker="o", label=q) for q in queues
    ]
    handles += [
        Line2D(
            [],
            [],
            ls="",
            marker="o",
            color="white",
            markeredgecolor="black",
            markersize=size[b] ** 0.5,
            label=f"{b:g}",
        )
        for b in (buffers[0], buffers[-1])
    ]
    fig.legend(
        handles=handles,
        loc="lower center",
        ncol=len(handles),
        fontsize=7,
        frameon=False,
        title=axes["legend"],
        title_fontsize=7,
    )
    fig.tight_layout(rect=(0, 0.7 / (3.2 * nrows + 0.8), 1, 1))
    return fig
