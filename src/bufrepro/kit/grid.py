"""Expand a study's grid x seeds into run points, and map run points to and from run folders."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bufrepro.kit.scope import EXPERIMENT_FOLDER


def fmt(value: Any) -> str:
    """Canonical text of a grid value, as it appears in paths and tables."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class RunPoint:
    """One simulation: an owner (a study or an experiment), a point of its grid and a seed."""

    owner: str
    values: tuple[tuple[str, Any], ...]
    seed: int
    labels: tuple[str, ...] = ()
    # A simulator beside the owner's own (e.g. "ns3"): its runs live in results/OWNER/BACKEND/.
    backend: str = ""
    # The folder of the owner's runs of this kind: "runs" (its grid), or a side run's own (hstcp's
    # "twoflow", "band", "twin"): results/OWNER[/BACKEND]/FOLDER/...
    folder: str = "runs"
    # An experiment's run: results/experiments/OWNER/FOLDER/... (the owner is its bare name, as
    # its Scope's and its RunSpec's are).
    experiment: bool = False

    def get(self, key: str) -> Any:
        """The value of one swept key."""
        return dict(self.values)[key]

    @property
    def run_dir(self) -> str:
        """The run's folder, relative to the working directory."""
        labels = self.labels or tuple(k for k, _ in self.values)
        parts = [f"{label}{fmt(v)}" for label, (_, v) in zip(labels, self.values, strict=True)]
        where = [self.owner, self.backend] if self.backend else [self.owner]
        if self.experiment:
            where = [EXPERIMENT_FOLDER, *where]
        return "/".join(["results", *where, self.folder, *parts, f"seed{self.seed}"])

    def as_dict(self) -> dict[str, Any]:
        """Swept values plus owner (on disk its key is "study", as params.json has it) and seed."""
        return {"study": self.owner, **dict(self.values), "seed": self.seed}


def cross(grid: Mapping[str, Sequence[Any]], keys: Sequence[str]) -> list[tuple[Any, ...]]:
    """The cross product of the grid's value lists over `keys`, in key order."""
    return list(itertools.product(*(grid[k] for k in keys)))


def expand(
    owner: str,
    keys: Sequence[str],
    combos: Sequence[tuple[Any, ...]],
    seeds: Sequence[int],
    labels: Sequence[str] = (),
) -> list[RunPoint]:
    """Every run: each combination of values (in `keys` order) times each seed."""
    keys = tuple(keys)
    labels = tuple(labels) or keys
    return [
        RunPoint(owner, tuple(zip(keys, combo, strict=True)), seed, labels)
        for combo in combos
        for seed in seeds
    ]


def size(grid: Any, seeds: Sequence[Any] | None) -> int:
    """How many runs a grid names without building them: the product of its value lists (a
    list of sub-grids: their sum; a scalar counts once), times the seeds."""
    if isinstance(grid, list):
        total = sum(size(sub, None) for sub in grid)
    elif isinstance(grid, dict):
        total = 1
        for key, values in grid.items():
            if key != "name":
                total *= len(values) if isinstance(values, list) else 1
    else:
        total = 1
    return total * (len(seeds) if seeds else 1)
