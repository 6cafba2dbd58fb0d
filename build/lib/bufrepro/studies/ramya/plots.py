"""The ramya study's figures: Tables 1 and 5, ping RTT, queue over time, the window remedy."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from bufrepro.kit.figures import plt
from bufrepro.studies.ramya.cells import with_derived
from bufrepro.studies.ramya.params import READING

PUBLISHED_STYLE = {"marker": "x", "color": "black", "s": 36, "zorder": 5}


def _label(key: Sequence[object]) -> str:
    tcp, bw, rwnd, scale = key
    window = int(str(rwnd))
    size = f"{window // 1024} KiB" if window % 1024 == 0 else f"{window} B"
    return f"{tcp}, B2 {float(str(bw)):g} Mb/s, rwnd {size}, delays x{float(str(scale)):g}"


def _lines(ax: Axes, data: pd.DataFrame, x: str, label_prefix: str = "") -> None:
    """Mean and 95% CI of one metric against `x`, one line per reading."""
    palette = sns.color_palette("tab10")
    for i, (key, g) in enumerate(data.groupby(list(READING), sort=True)):
        g = g.sort_values(x)
        colour = palette[i % len(palette)]
        ax.plot(g[x], g["mean"], marker="o", ms=3, color=colour, label=label_prefix + _label(key))
        # Every metric here is >= 0: a band from few seeds is drawn clipped at zero.
        ax.fill_between(g[x], g["ci_low"].clip(lower=0), g["ci_high"], color=colour, alpha=0.2)


def _table_figure(
    summary: pd.DataFrame,
    published: pd.DataFrame,
    setup: str,
    table: str,
    panels: Sequence[tuple[str, str, str, bool]],
) -> Figure:
    """One panel per (our metric, published metric, label, log y) against the buffer."""
    sns.set_theme(style="whitegrid", context="paper")
    fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels), 3.4), squeeze=False)
    ours = summary[summary["setup"] == setup]
    pub = published[published["table"] == table]
    for ax, (metric, pub_metric, ylabel, logy) in zip(axes[0], panels, strict=True):
        _lines(ax, ours[ours["metric"] == metric], "buffer")
        p = pub[pub["metric"] == pub_metric]
        if not p.empty:
            ax.scatter(
                p["buffer_frames"], p["value"], label=f"published ({table})", **PUBLISHED_STYLE
            )
        ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        ax.set_xlabel("buffer at R1 (frames)")
        ax.set_ylabel(ylabel)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig


def ping_figure(summary: pd.DataFrame) -> Figure:
    """Fig. 2: ping RTT (mean and 95th percentile) and TCP RTT against the buffer."""
    sns.set_theme(style="whitegrid", context="paper")
    fig, ax = plt.subplots(figsize=(6.0, 3.8))
    lat = summary[summary["setup"] == "latency"]
    # Readings with at least two buffers (the rwnd sweep has one buffer per window).
    multi = lat.groupby(list(READING))["buffer"].transform("nunique") >= 2
    lat = lat[multi]
    _lines(ax, lat[lat["metric"] == "ping_rtt_ms_mean"], "buffer", "ping RTT mean: ")
    p95 = lat[lat["metric"] == "ping_rtt_ms_p95"]
    for key, g in p95.groupby(list(READING), sort=True):
        g = g.sort_values("buffer")
        ax.plot(g["buffer"], g["mean"], ls="--", color="gray", label=f"ping RTT p95: {_label(key)}")
    tcp = lat[lat["metric"] == "tcp_rtt_s_mean"].copy()
    for key, g in tcp.groupby(list(READING), sort=True):
        g = g.sort_values("buffer")
        ax.plot(
            g["buffer"], g["mean"] * 1000, ls=":", color="black", label=f"TCP RTT: {_label(key)}"
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("buffer at R1 (frames)")
    ax.set_ylabel("RTT (ms)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def remedy_figure(summary: pd.DataFrame) -> Figure:
    """Ping RTT and goodput against the advertised window, at a fixed (large) buffer."""
    sns.set_theme(style="whitegrid", context="paper")
    fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.4), squeeze=False)
    lat = summary[summary["setup"] == "latency"]
    by = ["tcp", "bottleneck_mbps", "delay_scale", "buffer"]
    multi = lat.groupby(by)["rwnd_bytes"].transform("nunique") >= 2
    lat = lat[multi]
    palette = sns.color_palette("tab10")
    for ax, metric, ylabel in (
        (axes[0][0], "ping_rtt_ms_mean", "ping RTT (ms)"),
        (axes[0][1], "tcp_goodput_Bps", "goodput at the receiver (B/s)"),
    ):
        for i, (key, g) in enumerate(lat[lat["metric"] == metric].groupby(by, sort=True)):
            g = g.sort_values("rwnd_bytes")
            tcp, bw, scale, buf = key
            colour = palette[i % len(palette)]
            ax.plot(
                g["rwnd_bytes"] / 1024,
                g["mean"],
                marker="o",
                ms=3,
                color=colour,
                label=f"{tcp}, B2 {bw:g} Mb/s, delays x{scale:g}, buffer {buf} frames",
            )
            ax.fill_between(
                g["rwnd_bytes"] / 1024,
                g["ci_low"].clip(lower=0),
                g["ci_high"],
                color=colour,
                alpha=0.2,
            )
        ax.set_xscale("log", base=2)
        ax.set_xlabel("advertised receive window (KiB)")
        ax.set_ylabel(ylabel)
    axes[0][0].set_yscale("log")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def queue_figure(series: pd.DataFrame) -> Figure:
    """Fig. 3: the R1 -> R2 queue length over time, one panel per buffer (one seed)."""
    sns.set_theme(style="whitegrid", context="paper")
    data = series.copy()
    if not data.empty:
        # The ping sweep: readings with more than one buffer.
        multi = data.groupby(list(READING))["buffer"].transform("nunique") >= 2
        data = data[multi] if multi.any() else data
    buffers = sorted(data["buffer"].unique()) if not data.empty else []
    rows = max(1, len(buffers))
    fig, axes = plt.subplots(rows, 1, figsize=(7.5, 1.3 * rows + 0.8), squeeze=False, sharex=True)
    if not buffers:
        axes[0][0].text(0.5, 0.5, "no latency runs configured", ha="center", va="center")
    for ax, buf in zip(axes[:, 0], buffers, strict=False):
        for key, g in data[data["buffer"] == buf].groupby(list(READING), sort=True):
            ax.plot(g["time_s"], g["queue_pkts"], lw=0.6, label=_label(key))
        ax.axhline(buf, color="red", lw=0.6, ls="--")
        ax.set_ylabel(f"{buf} fr.", fontsize=8)
        ax.set_ylim(0, buf * 1.08 + 0.5)
    axes[-1][0].set_xlabel("time (s)")
    if buffers:
        seed = int(data["seed"].iloc[0])
        axes[0][0].set_title(
            f"queue at R1 -> R2 (packets waiting; dashed: buffer) - seed {seed}", fontsize=9
        )
    fig.tight_layout()
    return fig


def draw(summary: pd.DataFrame, published: pd.DataFrame, series: pd.DataFrame) -> dict[str, Figure]:
    """Table 1, Table 5, ping RTT (Fig. 2), the window remedy and the queue over time (Fig. 3)."""
    summary = with_derived(summary)
    return {
        "table1": _table_figure(
            summary,
            published,
            "table1",
            "Table 1",
            (
                ("tcp_goodput_Bps", "goodput", "goodput at the receiver (B/s)", False),
                ("tcp_rtt_s_mean", "avg_rtt", "average RTT (s)", True),
                ("tcp_drops_total", "packets_dropped", "packets dropped", True),
            ),
        ),
        "table5": _table_figure(
            summary,
            published,
            "table5",
            "Table 5",
            (
                ("tcp_throughput_kbps", "throughput", "throughput (kbit/s)", False),
                ("tcp_rtt_s_mean", "rtt", "RTT (s)", True),
                ("tcp_drops_total", "packet_drops", "packet drops", True),
                ("link_queue_avg_pkts", "avg_queue_length", "avg. queue length (frames)", True),
            ),
        ),
        "ping_rtt_vs_buffer": ping_figure(summary),
        "rwnd_remedy": remedy_figure(summary),
        "queue_over_time": queue_figure(series),
    }
