"""The experiment interface: a named scenario with no published table, answered from its runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from bufrepro.kit.declaration import Block, Declaration
from bufrepro.kit.grid import RunPoint

# Where every experiment's runs, tables and figures live: results/experiments/<name>/.
ROOT = "results/experiments"
# A kind's setup: its block parsed once into the kind's own typed form (the link kind's: the
# block with its Link), handed to every method that plans, runs or answers.
S = TypeVar("S")


@dataclass(frozen=True)
class Price:
    """What an experiment's runs are expected to cost before any runs: at most `runs` runs and
    `cpu_s` CPU seconds of simulator and parsers (the kind's own cost model)."""

    runs: int
    cpu_s: float


class Experiment(Generic[S]):
    """A kind of experiment (e.g. a user's link). Subclass it in `bufrepro.experiments.<kind>`
    and expose `KIND`; a config names experiments of a kind under `experiments: {<name>: ...}`.

    Unlike a Study it declares no published table: no diff, claims, coverage or readings stage
    can be asked of it, because it has none of those methods. Its one axis is searched
    (pipeline/experiments/search.py) for each value of `series` (e.g. the queue); it says what
    one run is on each simulator (declarations) and what it expects of the answer (checks on its
    own inputs).
    """

    kind: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # The run's swept keys: the series (one curve each) and the searched axis.
    series_key: ClassVar[str] = "queue"
    axis_key: ClassVar[str] = "buffer"
    path_labels: ClassVar[tuple[str, str]] = ("", "buf")
    # Metrics every run must define (checked on aggregation).
    required: ClassVar[tuple[str, ...]] = ()

    def backend_for(self, block: Block) -> str:
        """The simulator that runs this block (a key of declarations(); default: the first)."""
        return next(iter(self.declarations()))

    def declarations(self) -> Mapping[str, Declaration[S]]:
        """Each simulator the kind runs on, with its declaration (kit.declaration):
        what one run is there, planned from the kind's setup."""
        raise NotImplementedError(f"{self.kind}: declarations()")

    def check(self, where: str, block: Block) -> list[str]:
        """Config problems the schema cannot see, each naming its key (none by default)."""
        return []

    def setup(self, block: Block) -> S:
        """The block parsed once, after check() passed (the kind's typed form of it)."""
        raise NotImplementedError(f"{self.kind}: setup()")

    def series(self, setup: S) -> list[str]:
        """The values of series_key (each searched on its own)."""
        raise NotImplementedError(f"{self.kind}: series()")

    def axis_range(self, setup: S) -> tuple[int, int]:
        """The searched axis' lowest and highest value (integers)."""
        raise NotImplementedError(f"{self.kind}: axis_range()")

    def describe(self, setup: S) -> dict[str, Any]:
        """The scenario's derived quantities as the answer prints them (units in the names)."""
        return {}

    def price(self, block: Block) -> Price | None:
        """The runs' expected cost, before any run (None: the kind has no cost model)."""
        return None

    def rules(self, setup: S) -> list[dict[str, Any]]:
        """Rules of thumb on the axis from the block's own inputs: name, value, source, note."""
        return []


def run_points(
    name: str, kind: Experiment[Any], pairs: Sequence[tuple[str, int]], seeds: Sequence[int]
) -> list[RunPoint]:
    """The runs of (series value, axis value) pairs times seeds, under ROOT/<name>/runs/."""
    keys = (kind.series_key, kind.axis_key)
    return [
        RunPoint(name, tuple(zip(keys, pair, strict=True)), s, kind.path_labels, experiment=True)
        for pair in pairs
        for s in seeds
    ]
