"""Expand a study's grid x seeds into run points, and map run points to and from run folders."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def fmt(value: Any) -> str:
    """Canonical text of a grid value, as it appears in paths and tables."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class RunPoint:
    """One simulation: a study, a point of its grid and a seed."""

    study: str
    values: tuple[tuple[str, Any], ...]
    seed: int
    labels: tuple[str, ...] = ()

    def get(self, key: str) -> Any:
        """The value of one swept key."""
        return dict(self.values)[key]

    @property
    def run_dir(self) -> str:
        """The run's folder, relative to the working directory."""
        labels = self.labels or tuple(k for k, _ in self.values)
        parts = [f"{label}{fmt(v)}" for label, (_, v) in zip(labels, self.values, strict=True)]
        return "/".join(["results", self.study, "runs", *parts, f"seed{self.seed}"])

    def as_dict(self) -> dict[str, Any]:
        """Swept values plus study and seed."""
        return {"study": self.study, **dict(self.values), "seed": self.seed}


def expand(cfg: Mapping[str, Any], study: str) -> list[RunPoint]:
    """Every run of a study: the cross product of its grid lists times its seeds."""
    from bufrepro.studies import get

    spec = get(study)
    block = cfg[study]
    keys = spec.grid_keys
    labels = tuple(spec.path_labels.get(k, k) for k in keys)
    if spec.points is not None:
        combos: list[tuple[Any, ...]] = spec.points(block)
    else:
        combos = list(itertools.product(*(block["grid"][k] for k in keys)))
    return [
        RunPoint(study, tuple(zip(keys, combo, strict=True)), seed, labels)
        for combo in combos
        for seed in block["seeds"]
    ]


def find(cfg: Mapping[str, Any], study: str, run_dir: str) -> RunPoint:
    """The configured run point whose folder is `run_dir`; a folder outside the grid is an error."""
    for point in expand(cfg, study):
        if point.run_dir == run_dir:
            return point
    raise KeyError(f"{run_dir} is not a run of the configured {study} grid")
