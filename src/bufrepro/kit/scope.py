"""A batch's scope: whose runs (an owner's, a side run's) on which simulator; its folder."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

# The folder under results/ of every experiment's (results/experiments/<name>/).
EXPERIMENT_FOLDER = "experiments"
# Where an owner's runs sit: its own simulator's, a further simulator's, a study's side runs',
# an experiment's.
Role = Literal["own", "further", "side", "experiment"]


@dataclass(frozen=True)
class Scope:
    """One owner's runs on one simulator: a study's grid on its own simulator (results/<owner>/)
    or on a further one (results/<owner>/<simulator>/), a study's side runs of one kind
    (results/<owner>/<side>/), or an experiment's (results/experiments/<owner>/). The planner
    makes every scope of a config (pipeline.batch.scopes); `text` is its one printed form, the
    folder under results/ that the batch rule's {scope} names, and `parse` its one reading."""

    owner: str
    simulator: str
    role: Role = "own"
    # The kind of a study's side runs (role "side"), e.g. hstcp's "twoflow".
    side: str = ""

    @property
    def experiment(self) -> bool:
        """An experiment's scope (its batches run on every core, a stage at a time)."""
        return self.role == "experiment"

    @property
    def text(self) -> str:
        """The scope's folder under results/: <owner>, <owner>/<simulator>, <owner>/<side> or
        experiments/<owner>."""
        if self.role == "experiment":
            return f"{EXPERIMENT_FOLDER}/{self.owner}"
        if self.role == "further":
            return f"{self.owner}/{self.simulator}"
        if self.role == "side":
            return f"{self.owner}/{self.side}"
        return self.owner

    def __str__(self) -> str:
        return self.text


def parse(text: str, scopes: Iterable[Scope]) -> Scope:
    """The scope of `scopes` printed as `text`; anything else is an error naming them."""
    known = {s.text: s for s in scopes}
    if text not in known:
        raise ValueError(f"scope {text!r} is none of this config's: {', '.join(sorted(known))}")
    return known[text]


def of_run(folder: str, scopes: Iterable[Scope]) -> Scope:
    """The scope a run's folder (relative to results/: <scope>/...) sits in: the longest scope
    folder that holds it (hstcp/ns3/... is hstcp/ns3's, hstcp/readings/... hstcp's)."""
    parts = tuple(folder.split("/"))
    inside = [s for s in scopes if parts[: len(_folders(s))] == _folders(s)]
    if not inside:
        raise ValueError(f"{folder} is in no scope of this config (results/<scope>/...)")
    return max(inside, key=lambda s: len(_folders(s)))


def _folders(scope: Scope) -> tuple[str, ...]:
    return tuple(scope.text.split("/"))
