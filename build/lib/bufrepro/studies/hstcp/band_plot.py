"""The readings band's figure: utilisation vs buffer per scenario, the band, a priori, model."""

from __future__ import annotations

from typing import cast

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

FIGURE = "band_utilisation"
# One line per reading: (pacing, colour); the access ratio is the line style.
PACING_COLOURS = {False: "#1f77b4", True: "#2ca02c"}
STYLES = ("-", "--", ":", "-.")


def _panel(ax: Axes, g: pd.DataFrame, scen: str) -> None:
    """One scenario: the band's envelope, every reading's curve, the model."""
    g = g.sort_values("buffer_frac")
    env = g.groupby("buffer_frac", sort=True)[["band_low", "band_high"]].first()
    ax.fill_between(env.index, env["band_low"], env["band_high"], color="0.85", label="band")
    ratios = sorted(g["access_ratio"].unique())
    for key, r in g.groupby(["pacing", "access_ratio"], sort=True):
        pacing, ratio = bool(key[0]), float(cast(float, key[1]))
        style = STYLES[ratios.index(ratio) % len(STYLES)]
        apriori = bool(r["a_priori"].iloc[0])
        ax.plot(
            r["buffer_frac"],
            r["link_utilisation"],
            style,
            marker="o",
            markersize=3,
            color=PACING_COLOURS[pacing],
            linewidth=2.2 if apriori else 1.0,
            label=f"{'paced' if pacing else 'unpaced'}, access x{ratio:g}"
            + (" (a priori)" if apriori else ""),
        )
    model = g.groupby("buffer_frac", sort=True)["model_utilisation"].first()
    ax.plot(model.index, model.to_numpy(), "k^-", markersize=4, linewidth=1, label="model")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"{scen}, {g['buffer_pkts'].min()}-{g['buffer_pkts'].max()} packets")
    ax.set_xlabel("buffer (fraction of the R1-R2 BDP)")


def draw(band: pd.DataFrame | None) -> Figure:
    """Utilisation of every reading of the band per scenario, with its envelope and the model."""
    scens = sorted(band["scenario"].unique()) if band is not None and not band.empty else []
    fig, axes = plt.subplots(1, max(1, len(scens)), figsize=(5 * max(1, len(scens)), 4))
    axs = list(axes.flat) if hasattr(axes, "flat") else [axes]
    if band is None or band.empty:
        axs[0].text(0.5, 0.5, "no band runs", ha="center", va="center")
        return fig
    for ax, scen in zip(axs, scens, strict=True):
        _panel(ax, band[band["scenario"] == scen], str(scen))
    axs[0].set_ylabel("bottleneck utilisation")
    axs[-1].legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    return fig
