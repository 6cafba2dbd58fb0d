"""Seaborn figures of the reproduced metrics, with the published points overlaid."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

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


def save(fig: Figure, path: Path) -> None:
    """Write a figure as PNG with fixed metadata (no timestamps), then close it."""
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def write_figures(study: str, summary_csv: Path, published_csv: Path, out_dir: Path) -> list[Path]:
    """Draw a study's figures from its summary and published tables into out_dir/<name>.png."""
    from bufrepro.studies import get

    return save_all(get(study).draw(pd.read_csv(summary_csv), pd.read_csv(published_csv)), out_dir)


def save_all(figures: Mapping[str, Figure], out_dir: Path) -> list[Path]:
    """Save each figure as out_dir/<name>.png (save()); return the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fig in figures.items():
        save(fig, out_dir / f"{name}.png")
        paths.append(out_dir / f"{name}.png")
    return paths
