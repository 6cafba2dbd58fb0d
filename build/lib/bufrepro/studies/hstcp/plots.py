"""Figures of the hstcp study: utilisation vs buffer (model, simulation), Figs. 5-6, loss."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from bufrepro.kit.study import Tables

PALETTE = {"DropTail": "#1f77b4", "RED": "#d62728"}
PAPER_FIGURE = {("s1", "DropTail"): 3, ("s2", "DropTail"): 4, ("s1", "RED"): 7, ("s2", "RED"): 8}
FRACTION_TICKS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]
TWOFLOW_CASES = ("under", "over")
# Paper figure of each (scenario, queue) utilisation plot.
UTIL_FIGURES = {
    ("s1", "DropTail"): "fig3_droptail_s1",
    ("s2", "DropTail"): "fig4_droptail_s2",
    ("s1", "RED"): "fig7_red_s1",
    ("s2", "RED"): "fig8_red_s2",
}
FIGURES = (
    *UTIL_FIGURES.values(),
    "fig5_twoflow_under",
    "fig6_twoflow_over",
    "loss_vs_buffer",
    "fairness_vs_buffer",
)


def _fraction_axis(ax: Axes) -> None:
    """Log x axis of buffer fractions with plain tick labels."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    ax.set_xscale("log")
    lo, hi = ax.get_xlim()
    ticks = [t for t in FRACTION_TICKS if lo <= t <= hi] or FRACTION_TICKS
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_locator(NullLocator())


def _empty(ax: Axes, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=8)
    ax.set_xticks([])
    ax.set_yticks([])


def _sim_and_model(
    ax: Axes,
    summary: pd.DataFrame,
    model: pd.DataFrame | None,
    scenario: str,
    queue: str,
    metric: str,
    model_col: str | None,
) -> bool:
    """Simulated mean with its 95% CI against the buffer fraction, and the model's curve."""
    sim = summary[
        (summary["scenario"] == scenario)
        & (summary["queue"] == queue)
        & (summary["metric"] == metric)
    ].sort_values("buffer_frac")
    colour = PALETTE.get(queue, "gray")
    drawn = False
    if not sim.empty:
        # Utilisation, loss and Jain's index lie in [0, 1]: an interval from few seeds reaching
        # past that is drawn clipped to it (the captions say so).
        low, high = sim["ci_low"].clip(lower=0.0), sim["ci_high"].clip(upper=1.0)
        err_lo = (sim["mean"] - low).clip(lower=0).fillna(0)
        err_hi = (high - sim["mean"]).clip(lower=0).fillna(0)
        ax.errorbar(
            sim["buffer_frac"],
            sim["mean"],
            yerr=[err_lo, err_hi],
            fmt="o",
            ms=4,
            capsize=2,
            color=colour,
            label="simulation (ns-2, mean and 95% CI)",
        )
        drawn = True
    if model is not None and model_col is not None:
        mod = model[(model["scenario"] == scenario) & (model["queue"] == queue)].sort_values(
            "buffer_frac"
        )
        if not mod.empty:
            ax.plot(mod["buffer_frac"], mod[model_col], "-", color="black", lw=1.2, label="model")
            drawn = True
    return drawn


def utilisation(
    summary: pd.DataFrame, model: pd.DataFrame | None, scenario: str, queue: str
) -> Figure:
    """Utilisation against the buffer fraction of the R1-R2 BDP (Figs. 3, 4, 7, 8)."""
    sns.set_theme(style="whitegrid", context="paper")
    fig, ax = plt.subplots(figsize=(5.2, 3.6))
    if _sim_and_model(ax, summary, model, scenario, queue, "link_utilisation", "utilisation"):
        _fraction_axis(ax)
        ax.set_xlabel("buffer (fraction of the R1-R2 bandwidth-delay product)")
        ax.set_ylabel("bottleneck utilisation")
        ax.axvline(0.1, color="gray", lw=0.6, ls=":")
        ax.legend(fontsize=7, loc="lower right")
    else:
        _empty(ax, f"{scenario} / {queue} is not in the configured grid")
    fig_no = PAPER_FIGURE.get((scenario, queue))
    paper = f" (the paper's Fig. {fig_no})" if fig_no else ""
    ax.set_title(f"HighSpeed TCP, {queue}, scenario {scenario}{paper}", fontsize=9)
    fig.tight_layout()
    return fig


def metric_grid(
    summary: pd.DataFrame,
    model: pd.DataFrame | None,
    metric: str,
    model_col: str | None,
    ylabel: str,
    log: bool = False,
) -> Figure:
    """`metric` against the buffer fraction, one panel per scenario (rows) and queue (columns)."""
    sns.set_theme(style="whitegrid", context="paper")
    scenarios = sorted(summary["scenario"].unique()) or ["-"]
    queues = sorted(summary["queue"].unique()) or ["-"]
    fig, axes = plt.subplots(
        len(scenarios),
        len(queues),
        figsize=(3.8 * len(queues), 2.8 * len(scenarios)),
        squeeze=False,
    )
    for i, scen in enumerate(scenarios):
        for j, queue in enumerate(queues):
            ax = axes[i][j]
            if _sim_and_model(ax, summary, model, scen, queue, metric, model_col):
                _fraction_axis(ax)
                if log:
                    ax.set_yscale("log")
            else:
                _empty(ax, "no data")
            ax.set_title(f"{scen}, {queue}", fontsize=8)
            ax.set_xlabel("buffer (fraction of BDP)" if i == len(scenarios) - 1 else "")
            ax.set_ylabel(ylabel if j == 0 else "")
    handles, labels = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def window_queue(series: pd.DataFrame | None, case: str) -> Figure:
    """Figs. 5-6: cwnd of the two flows and the bottleneck queue against time (one seed)."""
    sns.set_theme(style="whitegrid", context="paper")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.0, 4.4), sharex=True)
    title = {"under": "under-buffered", "over": "over-buffered"}.get(case, case)
    if series is None or series.empty:
        _empty(top, "no two-flow run")
        _empty(bottom, "")
    else:
        cwnds = [c for c in series.columns if c.startswith("cwnd_")]
        names = {cwnds[0]: "short RTT (the paper's HSTCP2)", cwnds[-1]: "long RTT (HSTCP1)"}
        for col in cwnds:
            top.plot(series["time_s"], series[col], lw=0.8, label=names.get(col, col))
        top.set_ylabel("cwnd (packets)")
        top.legend(fontsize=7, loc="upper left")
        bottom.plot(series["time_s"], series["queue_pkts"], lw=0.6, color="black")
        bottom.set_ylabel("queue (packets)")
        bottom.set_xlabel("time (s)")
    top.set_title(f"Two HSTCP flows, DropTail, {title}", fontsize=9)
    fig.tight_layout()
    return fig


def draw_tables(
    summary: pd.DataFrame,
    model: pd.DataFrame | None,
    twoflow_series: Mapping[str, pd.DataFrame] | None,
) -> dict[str, Figure]:
    """Every figure: Figs. 3, 4, 7, 8 (model and simulation), 5-6 (two flows), loss, fairness."""
    figs: dict[str, Figure] = {}
    for (scen, queue), name in UTIL_FIGURES.items():
        figs[name] = utilisation(summary, model, scen, queue)
    for case in TWOFLOW_CASES:
        idx = 5 if case == "under" else 6
        figs[f"fig{idx}_twoflow_{case}"] = window_queue((twoflow_series or {}).get(case), case)
    figs["loss_vs_buffer"] = metric_grid(
        summary, model, "loss_rate", "loss_rate", "loss rate", log=True
    )
    figs["fairness_vs_buffer"] = metric_grid(
        summary, None, "jain_index", None, "Jain's fairness index"
    )
    return figs


def series_by_case(series: pd.DataFrame | None) -> dict[str, pd.DataFrame]:
    """The two-flow time series table (a `case` column) as one table per case."""
    if series is None:
        return {}
    return {
        str(case): part.drop(columns="case").reset_index(drop=True)
        for case, part in series.groupby("case", sort=False)
    }


def draw(tables: Tables) -> dict[str, Figure]:
    """Study.draw: summary, the model (compare's) and the two-flow series (the two-flow rule's)."""
    return draw_tables(
        tables["summary"], tables.get("model"), series_by_case(tables.get("twoflow_series"))
    )
