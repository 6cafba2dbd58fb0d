"""Saving figures reproducibly (Agg backend, fixed metadata); plot functions return Figures."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

__all__ = ["plt", "png_data_uri", "save", "save_all"]


def save(fig: Figure, path: Path) -> None:
    """Write a figure as PNG with fixed metadata (no timestamps), then close it."""
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def png_data_uri(path: Path) -> str:
    """A PNG file as a data: URI (a self-contained page's image)."""
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def save_all(figures: Mapping[str, Figure], out_dir: Path) -> list[Path]:
    """Save each figure as out_dir/<name>.png (save()); return the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fig in figures.items():
        save(fig, out_dir / f"{name}.png")
        paths.append(out_dir / f"{name}.png")
    return paths
