"""Figures of the dumbbell study: delay and throughput against buffer, and their trade-off."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd
import seaborn as sns
from matplotlib.axis import Axis
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

from bufrepro.kit.figures import plt
from bufrepro.studies.dumbbell.cells import our_cells, paper_cells

PALETTE = {"DropTail": "#1f77b4", "RED": "#d62728"}


def metric_vs_buffer(
    summary: pd.DataFrame,
    published: pd.DataFrame,
    metric: str,
    published_column: str,
    ylabel: str,
) -> Figure:
    """Mean and 95% CI of `metric` against buffer size, faceted by loss rate x bottleneck.

    `summary` is the long summary table (queue, plr, bottleneck_mbps, buffer, metric, mean,
    ci_low, ci_high); `published` the tidy published table (may be empty).
    """
    sns.set_theme(style="whitegrid", context="paper")
    data = summary[summary["metric"] == metric]
    plrs = sorted(data["plr"].unique())
    bws = sorted(data["bottleneck_mbps"].unique())
    fig, axes = plt.subplots(
        len(plrs), len(bws), figsize=(3.6 * len(bws), 2.8 * len(plrs)), squeeze=False, sharex=True
    )
    for i, plr in enumerate(plrs):
        for j, bw in enumerate(bws):
            ax = axes[i][j]
            cell = data[(data["plr"] == plr) & (data["bottleneck_mbps"] == bw)]
            for queue, q in cell.groupby("queue", sort=True):
                q = q.sort_values("buffer")
                colour = PALETTE.get(str(queue), "gray")
                ax.plot(
                    q["buffer"],
                    q["mean"],
                    marker="o",
                    ms=3,
                    color=colour,
                    label=f"{queue} (ours, mean and 95% CI)",
                )
                # Delay and throughput are >= 0: a t-interval from few seeds reaching below
                # zero is drawn clipped there (the caption says so).
                low = q["ci_low"].clip(lower=0)
                ax.fill_between(q["buffer"], low, q["ci_high"], color=colour, alpha=0.2)
            if not published.empty:
                pub = published[
                    (published["plr"].round(9) == round(plr, 9))
                    & (published["bottleneck_mbps"].round(9) == round(bw, 9))
                ]
                for (queue, side), p in pub.groupby(["queue", "side"], sort=True):
                    ax.scatter(
                        p["buffer"],
                        p[published_column],
                        color=PALETTE.get(str(queue)),
                        marker="x" if side == "existing" else "+",
                        s=28,
                        label=f"{queue} (published, {side})",
                    )
            ax.set_xscale("log")
            ticks = sorted(data["buffer"].unique())
            ax.set_xticks(ticks, [f"{t:g}" for t in ticks], fontsize=6)
            ax.xaxis.set_minor_locator(NullLocator())
            ax.set_title(f"PLR {plr:g}, bottleneck {bw:g} Mb/s", fontsize=8)
            ax.set_xlabel("buffer (packets)" if i == len(plrs) - 1 else "")
            ax.set_ylabel(ylabel if j == 0 else "")
    handles, labels = axes[0][0].get_legend_handles_labels()
    seen = dict(zip(labels, handles, strict=True))
    fig.legend(seen.values(), seen.keys(), loc="lower center", ncol=3, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


# Our cells: one filled marker per bottleneck bandwidth; the paper's cells: a black cross, a
# marker no bottleneck uses, so each marker has one meaning.
BOTTLENECK_MARKERS = ("o", "s", "^", "D", "v", "P", "h", "<", ">")
PUBLISHED_MARKER = "x"


def log_ticks(lo: float, hi: float, most: int = 6) -> list[float]:
    """At most `most` 1-2-5 ticks spanning [lo, hi] (positive), thinned to decades if needed."""
    if not (lo > 0 and hi >= lo):
        return []
    first, last = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    for subs in ((1, 2, 5), (1, 3), (1,)):
        ticks = [
            m * 10.0**e for e in range(first, last + 1) for m in subs if lo <= m * 10.0**e <= hi
        ]
        if len(ticks) <= most and len(ticks) >= 2:
            return ticks
    decades = [10.0**e for e in range(first, last + 1)]
    step = max(1, math.ceil(len(decades) / most))
    return decades[::step]


def _log_axis(axis: Axis, values: pd.Series) -> None:
    """A log axis with a few plain-number ticks (no minor labels to collide)."""
    axis.set_major_locator(FixedLocator(log_ticks(float(values.min()), float(values.max()))))
    axis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    axis.set_minor_locator(NullLocator())
    axis.set_minor_formatter(NullFormatter())


def delay_vs_throughput(means: pd.DataFrame, published: pd.DataFrame) -> Figure:
    """Mean delay against mean throughput per cell, faceted by loss rate; published overlaid.

    `means` has columns queue, plr, bottleneck_mbps, buffer, delay, throughput; so does
    `published` (the paper's cells), which may be empty. Colour is the queue, the marker the
    bottleneck; the paper's cells are black crosses; the legend sits below the panels.
    """
    sns.set_theme(style="whitegrid", context="paper")
    plrs = sorted(means["plr"].unique())
    bws = sorted(means["bottleneck_mbps"].unique())
    markers = {bw: BOTTLENECK_MARKERS[i % len(BOTTLENECK_MARKERS)] for i, bw in enumerate(bws)}
    fig, axes = plt.subplots(1, len(plrs), figsize=(4.0 * len(plrs), 3.6), squeeze=False)
    handles: dict[str, Any] = {}
    for j, plr in enumerate(plrs):
        ax = axes[0][j]
        sub = means[means["plr"] == plr]
        pub = published[published["plr"].round(9) == round(plr, 9)] if len(published) else published
        for (queue, bw), cell in sub.groupby(["queue", "bottleneck_mbps"], sort=True):
            handles[f"{queue}, bottleneck {bw:g} Mb/s (ours)"] = ax.scatter(
                cell["throughput"],
                cell["delay"],
                marker=markers[bw],
                color=PALETTE.get(str(queue), "gray"),
                s=22,
                alpha=0.85,
            )
        if len(pub):
            handles["published cells"] = ax.scatter(
                pub["throughput"],
                pub["delay"],
                marker=PUBLISHED_MARKER,
                color="black",
                s=18,
                linewidths=0.9,
            )
        both = pd.concat([sub[["throughput", "delay"]], pub[["throughput", "delay"]]])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.margins(0.08)
        ax.autoscale_view()
        _log_axis(ax.xaxis, both["throughput"])
        _log_axis(ax.yaxis, both["delay"])
        ax.tick_params(labelsize=7)
        ax.set_title(f"PLR {plr:g}", fontsize=9)
        ax.set_xlabel("TCP throughput (kb/s)")
        ax.set_ylabel("TCP delay (ms)" if j == 0 else "")
    fig.legend(
        list(handles.values()),
        list(handles.keys()),
        loc="lower center",
        ncol=min(3, max(1, len(handles))),
        fontsize=7,
        frameon=False,
    )
    rows = math.ceil(len(handles) / 3)
    fig.tight_layout(rect=(0, min(0.4, 0.02 + 0.055 * rows), 1, 1))
    return fig


def draw(
    summary: pd.DataFrame, published: pd.DataFrame, metrics: Mapping[str, str] | None = None
) -> dict[str, Figure]:
    """Delay and throughput vs buffer, and delay vs throughput: the metrics the published
    columns read (`metrics`, published column -> ours; default the FTP reading's)."""
    metrics = metrics or {}
    delay = metrics.get("tcp_delay_ms", "tcp_delay_ms_mean")
    throughput = metrics.get("tcp_throughput_kbps", "tcp_throughput_kbps")
    return {
        "delay_vs_buffer": metric_vs_buffer(
            summary, published, delay, "tcp_delay_ms", _label(delay, "TCP delay (ms)")
        ),
        "throughput_vs_buffer": metric_vs_buffer(
            summary,
            published,
            throughput,
            "tcp_throughput_kbps",
            _label(throughput, "TCP throughput (kb/s)"),
        ),
        "delay_vs_throughput": delay_vs_throughput(
            our_cells(summary, metrics), paper_cells(published)
        ),
    }


def _label(metric: str, ftp: str) -> str:
    """The axis label: the FTP reading's wording, else the metric's own name."""
    return ftp if metric in ("tcp_delay_ms_mean", "tcp_throughput_kbps") else metric
