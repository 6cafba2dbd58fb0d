"""Seaborn figures of the vegas study: Tables II-IV, buffer / BDP, throughput over time."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure

PALETTE = {"standard": "#1f77b4", "spacing": "#ff7f0e"}
PANELS = (
    ("tcp_delay_ms_mean", "network_delay", "network delay (ms)"),
    ("tcp_throughput_kbps", "network_throughput", "network throughput (kb/s)"),
    ("tcp_efficiency_pct", "network_efficiency", "network efficiency (%)"),
    ("delay_per_throughput", "delay_wrt_throughput", "delay w.r.t. throughput (ms per kb/s)"),
)
# Published table -> (setup, variant) of its rows.
PUBLISHED = {"Table II": "standard", "Table III": "spacing", "Table IV": "spacing"}
MARKERS = {"Table II": "x", "Table III": "+", "Table IV": "+"}


def _ours(ax: Axes, data: pd.DataFrame, along: str) -> None:
    starts = sorted(data["start_s"].unique())
    styles = dict(zip(starts, ["-", "--", ":", "-."] * len(starts), strict=False))
    for (variant, start), g in data.groupby(["variant", "start_s"], sort=True):
        g = g.sort_values(along)
        colour = PALETTE.get(str(variant), "gray")
        ax.plot(
            g[along],
            g["mean"],
            marker="o",
            ms=3,
            color=colour,
            linestyle=styles[start],
            label=f"{variant}, transfer from {start:g} s (ours, mean and 95% CI)",
        )
        # Every metric here is >= 0: a band from few seeds is drawn clipped at zero.
        ax.fill_between(g[along], g["ci_low"].clip(lower=0), g["ci_high"], color=colour, alpha=0.15)


def _published(
    ax: Axes, published: pd.DataFrame, tables: list[str], along: str, column: str
) -> None:
    for table in tables:
        rows = published[(published["table"] == table) & (published["metric"] == column)]
        if rows.empty:
            continue
        ax.scatter(
            rows[along],
            rows["value"],
            color=PALETTE[PUBLISHED[table]],
            marker=MARKERS[table],
            s=40,
            zorder=5,
            label=f"{PUBLISHED[table]}, published ({table})",
        )


def _legend(fig: Figure, axes: list[Axes]) -> None:
    seen: dict[str, Artist] = {}
    for ax in axes:
        handles, labels = ax.get_legend_handles_labels()
        for h, lab in zip(handles, labels, strict=True):
            seen.setdefault(lab, h)
    fig.legend(
        list(seen.values()),
        list(seen.keys()),
        loc="lower center",
        ncol=2,
        fontsize=7,
        frameon=False,
    )


def _four_panels(
    data: pd.DataFrame,
    published: pd.DataFrame,
    along: str,
    published_along: str,
    tables: list[str],
    xlabel: str,
) -> tuple[Figure, list[Axes]]:
    """The four metrics (PANELS) of one setup's cells against `along`, ours and published."""
    sns.set_theme(style="whitegrid", context="paper")
    fig, axes = plt.subplots(2, 2, figsize=(9.0, 7.0), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax, (metric, column, label) in zip(flat, PANELS, strict=True):
        _ours(ax, data[data["metric"] == metric], along)
        _published(ax, published, tables, published_along, column)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(label)
    return fig, flat


def _finish(fig: Figure, axes: list[Axes]) -> Figure:
    _legend(fig, axes)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def packet_size(summary: pd.DataFrame, published: pd.DataFrame) -> Figure:
    """Tables II-III: the four metrics against the packet size, standard and spaced Vegas, each
    transfer start we ran, the published rows overlaid."""
    data = summary[summary["setup"] == "packet"]
    fig, axes = _four_panels(
        data, published, "packet_bytes", "packet_size_bytes", ["Table II", "Table III"],
        "packet size (bytes)",
    )  # fmt: skip
    ticks = sorted(data["packet_bytes"].unique())
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks, [str(int(t)) for t in ticks])
        ax.minorticks_off()
    return _finish(fig, axes)


def rtt(summary: pd.DataFrame, published: pd.DataFrame, upper: list[float] | None = None) -> Figure:
    """Table IV: the four metrics against the RTT (Fig. 6 is the delay), with the text's upper
    boundary shaded and the published rows overlaid."""
    data = summary[summary["setup"] == "rtt"]
    fig, axes = _four_panels(data, published, "rtt_ms", "rtt_ms", ["Table IV"], "RTT (ms)")
    if upper:
        for ax in axes:
            ax.axvspan(
                min(upper) - 5, max(upper) + 5, color="gray", alpha=0.1,
                label="the text's upper boundary",
            )  # fmt: skip
    return _finish(fig, axes)


def buffer_ratio(bdp: pd.DataFrame, published: pd.DataFrame) -> Figure:
    """Tables V-VI: X = buffer / BDP and buffer = X * BDP against the RTT, computed from the
    config, the printed values overlaid, and the upper boundary as the text and as our
    throughputs draw it."""
    sns.set_theme(style="whitegrid", context="paper")
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.0, 3.8))
    left.plot(
        bdp["rtt_ms"],
        bdp["ratio_X"],
        marker="o",
        ms=3,
        color="black",
        label="X = buffer / BDP (computed)",
    )
    up = bdp[bdp["upper"]]
    left.scatter(
        up["rtt_ms"],
        up["ratio_X"],
        s=60,
        facecolors="none",
        edgecolors="#2ca02c",
        label="text's upper boundary",
    )
    if "ours_upper" in bdp:
        mine = bdp[bdp["ours_upper"].astype(bool)]
        left.scatter(
            mine["rtt_ms"],
            mine["ratio_X"],
            s=110,
            facecolors="none",
            edgecolors="#d62728",
            label="our upper group (Table IV runs)",
        )
        if not mine.empty:
            left.axhline(
                float(bdp["ours_mean_X"].iloc[0]),
                color="#d62728",
                linestyle="--",
                lw=1,
                label=f"our mean X {float(bdp['ours_mean_X'].iloc[0]):.3f}",
            )
    left.axhline(
        float(bdp["mean_X"].iloc[0]),
        color="#2ca02c",
        linestyle="--",
        lw=1,
        label=f"mean X {float(bdp['mean_X'].iloc[0]):.4f}",
    )
    pub_x = published[(published["table"] == "Table V") & (published["metric"] == "ratio_X")]
    left.scatter(
        pub_x["rtt_ms"],
        pub_x["value"],
        marker="x",
        color="black",
        s=30,
        label="published (Table V)",
    )
    left.set_xlabel("RTT (ms)")
    left.set_ylabel("X = buffer / BDP")
    right.plot(
        bdp["rtt_ms"],
        bdp["buffer_calculated"],
        marker="o",
        ms=3,
        color="black",
        label="X x BDP (computed)",
    )
    right.plot(
        bdp["rtt_ms"],
        bdp["buffer_rounded"],
        marker="s",
        ms=3,
        lw=0.8,
        color="gray",
        label="rounded (computed)",
    )
    pub_b = published[
        (published["table"] == "Table VI") & (published["metric"] == "buffer_rounded")
    ]
    right.scatter(
        pub_b["rtt_ms"],
        pub_b["value"],
        marker="x",
        color="#d62728",
        s=30,
        label="rounded, published (Table VI)",
    )
    right.set_xlabel("RTT (ms)")
    right.set_ylabel("buffer (packets)")
    left.legend(fontsize=6, frameon=False)
    right.legend(fontsize=6, frameon=False)
    fig.tight_layout()
    return fig


def throughput_over_time(series: pd.DataFrame) -> Figure:
    """Figs. 7-8: throughput per bin and its running mean over time, one line per RTT, per
    variant and transfer start (one seed)."""
    sns.set_theme(style="whitegrid", context="paper")
    pairs = series[["variant", "start_s"]].drop_duplicates()
    groups = sorted(zip(pairs["variant"].astype(str), pairs["start_s"].astype(float), strict=True))
    ncol = max(1, len(groups))
    fig, axes = plt.subplots(2, ncol, figsize=(4.2 * ncol, 6.0), squeeze=False, sharey="row")
    for j, (variant, start) in enumerate(groups):
        g = series[(series["variant"] == variant) & (series["start_s"] == start)]
        g = g.sort_values(["rtt_ms", "time_s"]).copy()
        g["cumulative_kbps"] = g.groupby("rtt_ms")["throughput_kbps"].transform(
            lambda s: s.expanding().mean()
        )
        for row, column, label in (
            (0, "throughput_kbps", "throughput (kb/s)"),
            (1, "cumulative_kbps", "mean throughput so far (kb/s)"),
        ):
            sns.lineplot(
                data=g,
                x="time_s",
                y=column,
                hue="rtt_ms",
                palette="viridis",
                ax=axes[row][j],
                lw=0.7,
                legend=(row == 0 and j == ncol - 1),
            )
            axes[row][j].set_ylabel(label if j == 0 else "")
            axes[row][j].set_xlabel("time (s)")
        axes[0][j].set_title(f"{variant} Vegas, transfer from {start:g} s", fontsize=8)
    if groups:
        leg = axes[0][ncol - 1].get_legend()
        if leg is not None:
            leg.set_title("RTT (ms)")
    fig.tight_layout()
    return fig


def draw(tables: Mapping[str, pd.DataFrame]) -> dict[str, Figure]:
    """Every figure of the study from its summary, published table, bdp and throughput series."""
    summary = tables["summary"]
    published = tables["published"]
    bdp = tables["bdp"]
    upper = [float(r) for r in bdp.loc[bdp["upper"].astype(bool), "rtt_ms"]]
    return {
        "packet_size": packet_size(summary, published),
        "rtt": rtt(summary, published, upper),
        "buffer_ratio": buffer_ratio(bdp, published),
        "throughput_over_time": throughput_over_time(tables["throughput_series"]),
    }
