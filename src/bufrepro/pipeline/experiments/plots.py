"""An experiment's figures: each takes the wide table (and the rules) and returns a Figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

RULE_STYLES = ("--", ":", "-.", (0, (5, 1, 1, 1)))


def _mark_rules(ax: Axes, rules: pd.DataFrame, label: bool) -> None:
    for i, (rule, pkts) in enumerate(zip(rules["rule"], rules["pkts"], strict=True)):
        if float(pkts) > 0:
            style = RULE_STYLES[i % len(RULE_STYLES)]
            name = str(rule) if label else None
            ax.axvline(float(pkts), color="0.4", linestyle=style, linewidth=1, label=name)


def _log_buffers(ax: Axes) -> None:
    """A log buffer axis labelled in plain packet counts."""
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("buffer (packets, log scale)")


def _colours(table: pd.DataFrame) -> dict[str, str]:
    return {str(q): f"C{i}" for i, q in enumerate(table["queue"].drop_duplicates())}


def _series(ax: Axes, table: pd.DataFrame, metric: str, picks: pd.DataFrame | None = None) -> None:
    colours = _colours(table)
    for queue, rows in table.groupby("queue", sort=False):
        rows = rows.sort_values("buffer_pkts")
        line = ax.errorbar(
            rows["buffer_pkts"],
            rows[metric],
            yerr=rows[f"{metric}_ci"].fillna(0),
            marker="o",
            markersize=3,
            capsize=2,
            label=str(queue),
            color=colours[str(queue)],
        )
        if picks is not None:
            at = picks[picks["queue"] == queue]["buffer_pkts"].dropna()
            for b in at:
                y = rows[rows["buffer_pkts"] == b][metric]
                ax.plot(
                    [b],
                    y,
                    marker="*",
                    markersize=14,
                    color=line[0].get_color(),
                    markeredgecolor="k",
                )


def utilisation_delay(table: pd.DataFrame, rules: pd.DataFrame, picks: pd.DataFrame) -> Figure:
    """Utilisation and mean/p99 queueing delay against the buffer (log), rules marked, picks
    starred."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6.5), sharex=True)
    _series(top, table, "link_utilisation", picks)
    _mark_rules(top, rules, label=True)
    top.set_ylabel("link utilisation")
    top.legend(fontsize=8, loc="lower right")
    _series(bottom, table, "qdelay_ms_mean", picks)
    colours = _colours(table)
    for queue, rows in table.groupby("queue", sort=False):
        bottom.plot(
            rows["buffer_pkts"],
            rows["qdelay_ms_p99"],
            linestyle=":",
            linewidth=1.2,
            label=f"{queue} p99",
            color=colours[str(queue)],
        )
    _mark_rules(bottom, rules, label=False)
    bottom.set_ylabel("queueing delay (ms): mean, p99 dotted")
    _log_buffers(bottom)
    bottom.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def delay_vs_throughput(table: pd.DataFrame) -> Figure:
    """Mean queueing delay against throughput, this link's cells only, each labelled by buffer."""
    fig, ax = plt.subplots(figsize=(7, 5))
    colours = _colours(table)
    for queue, rows in table.groupby("queue", sort=False):
        rows = rows.sort_values("buffer_pkts")
        ax.plot(
            rows["throughput_mbps"],
            rows["qdelay_ms_mean"],
            marker="o",
            label=str(queue),
            color=colours[str(queue)],
        )
        for r in rows.itertuples():
            ax.annotate(
                f"{r.buffer_pkts}",
                (r.throughput_mbps, r.qdelay_ms_mean),
                textcoords="offset points",
                xytext=(4, 3),
                fontsize=7,
            )
    ax.set_xlabel("throughput over the bottleneck (Mbit/s)")
    ax.set_ylabel("mean queueing delay (ms)")
    ax.set_title("each point labelled by its buffer (packets)", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def loss(table: pd.DataFrame, rules: pd.DataFrame) -> Figure:
    """Queue-drop and random-loss rates against the buffer (log), rules marked."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    _series(ax, table, "queue_loss_rate")
    colours = _colours(table)
    for queue, rows in table.groupby("queue", sort=False):
        ax.plot(
            rows["buffer_pkts"],
            rows["link_loss_rate"],
            linestyle=":",
            label=f"{queue} link (random)",
            color=colours[str(queue)],
        )
    _mark_rules(ax, rules, label=True)
    _log_buffers(ax)
    ax.set_ylabel("loss rate (of packets offered)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
