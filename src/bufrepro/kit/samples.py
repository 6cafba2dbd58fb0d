"""Per-seed samples of one cell: the values a claim's test pairs by seed, or a published point."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from bufrepro.kit.stats import mean_sd
from bufrepro.kit.verdicts import PUBLISHED


@dataclass(frozen=True)
class Sample:
    """One cell's values by seed ({seed: value}); the paper's value is {PUBLISHED: value}."""

    values: Mapping[int, float]

    @classmethod
    def published(cls, value: float) -> Sample:
        """A value of the paper's table: one point, judged by the same test as our runs."""
        return cls({PUBLISHED: float(value)})

    @property
    def n(self) -> int:
        return mean_sd(list(self.values.values()))[0]

    @property
    def mean(self) -> float:
        return mean_sd(list(self.values.values()))[1]

    @property
    def sd(self) -> float:
        return mean_sd(list(self.values.values()))[2]

    def scaled(self, factor: float) -> Sample:
        """factor x each seed's value (a target such as 90 % of a cell, per seed)."""
        return Sample({k: factor * v for k, v in self.values.items()})

    def over(self, other: Sample) -> Sample:
        """This cell's value over the other's, per seed both hold (e.g. throughput / RTT)."""
        common = sorted(set(self.values) & set(other.values))
        return Sample({k: self.values[k] / other.values[k] for k in common if other.values[k]})


def of_runs(runs: pd.DataFrame, keys: Sequence[str], metric: str) -> dict[Any, Sample]:
    """Per cell of `keys` (its value, a tuple for several keys): the metric's Sample by seed."""
    out: dict[Any, Sample] = {}
    part = runs.dropna(subset=[metric])
    for key, g in part.groupby(list(keys), sort=True):
        cell = key if len(keys) > 1 else key[0]
        seeds = [int(s) for s in g["seed"]]
        out[cell] = Sample(dict(zip(seeds, g[metric].astype(float), strict=True)))
    return out
