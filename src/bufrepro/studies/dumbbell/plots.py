"""Figures of the dumbbell study: delay and throughput against buffer, and their trade-off."""

from __future__ import annotations

import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

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
                ax.fill_between(q["buffer"], q["ci_low"], q["ci_high"], color=colour, alpha=0.2)
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


def delay_vs_throughput(means: pd.DataFrame, published: pd.DataFrame) -> Figure:
    """Mean delay against mean throughput per cell, faceted by loss rate; published overlaid.

    `means` has columns queue, plr, bottleneck_mbps, buffer, delay, throughput; so does
    `published` (the paper's cells), which may be empty.
    """
    sns.set_theme(style="whitegrid", context="paper")
    plrs = sorted(means["plr"].unique())
    fig, axes = plt.subplots(1, len(plrs), figsize=(4.0 * len(plrs), 3.4), squeeze=False)
    for j, plr in enumerate(plrs):
        ax = axes[0][j]
        sub = means[means["plr"] == plr]
        sns.scatterplot(
            data=sub,
            x="throughput",
            y="delay",
            hue="queue",
            style="bottleneck_mbps",
            palette=PALETTE,
            ax=ax,
            s=22,
            legend=(j == 0),
        )
        if not published.empty:
            pub = published[published["plr"].round(9) == round(plr, 9)]
            ax.scatter(
                pub["throughput"],
                pub["delay"],
                marker="x",
                color="black",
                s=14,
                label="published cells",
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"PLR {plr:g}", fontsize=9)
        ax.set_xlabel("TCP throughput (kb/s)")
        ax.set_ylabel("TCP delay (ms)" if j == 0 else "")
    fig.tight_layout()
    return fig


def draw(summary: pd.DataFrame, published: pd.DataFrame) -> dict[str, Figure]:
    """Delay and throughput vs buffer, and delay vs throughput."""
    return {
        "delay_vs_buffer": metric_vs_buffer(
            summary, published, "tcp_delay_ms_mean", "tcp_delay_ms", "TCP delay (ms)"
        ),
        "throughput_vs_buffer": metric_vs_buffer(
            summary,
            published,
            "tcp_throughput_kbps",
            "tcp_throughput_kbps",
            "TCP throughput (kb/s)",
        ),
        "delay_vs_throughput": delay_vs_throughput(our_cells(summary), paper_cells(published)),
    }
