"""A declaration: what an owner (a study, an experiment) runs on one simulator."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from bufrepro.kit.grid import RunPoint

# The program arguments that switch an ns-3 program's stream off (ns3/*.cc's --trace).
NS3_UNTRACED: Mapping[str, Any] = MappingProxyType({"trace": "none"})
# A study's validated config block (as one simulator runs it).
Block = Mapping[str, Any]
# What an owner plans its runs from: a study's block, an experiment kind's parsed setup.
B = TypeVar("B")


class Declaration(Generic[B]):
    """One owner's scenario on one simulator. Subclass it once per (owner, simulator); the
    owner lists its declarations by simulator (Study.declarations, Experiment.declarations) and the
    engine makes every run's spec from them alone, the same way for a study on ns-2 or ns-3 and
    for an experiment. Each method receives what the owner plans from (`B`) and the run point.
    """

    # What the simulator runs: a template under tcl/ (ns2) or a program of ns3/ (ns3).
    template: ClassVar[str] = ""
    # The streamed parser (under awk/), and the parser of a tally stream when it is a program of
    # its own (it reads only that stream, so gawk compiles less per run; empty: `parser` reads
    # both).
    parser: ClassVar[str] = ""
    tally_parser: ClassVar[str] = ""
    # Further parsers parser_for() may pick for some runs (the workflow watches them too).
    other_parsers: ClassVar[tuple[str, ...]] = ()
    # The file the scenario writes its event stream to (a named pipe while the parser reads it).
    stream: ClassVar[str] = "out.tr"
    # Small files the scenario writes beside the stream, parsed by side_parser after the run.
    side_files: ClassVar[tuple[str, ...]] = ()
    side_parser: ClassVar[str] = ""
    # Per-run files kept as results (series for figures); everything else is deleted.
    kept_files: ClassVar[tuple[str, ...]] = ()
    # The simulator's options for these runs, e.g. {"build": "patched"} (ns-2 with the
    # project's patches).
    options: ClassVar[Mapping[str, str]] = MappingProxyType({})
    # Template variables (or program arguments) that switch the scenario's stream off: the
    # benchmarks' floor (an ns-3 program's: {"trace": "none"}, NS3_UNTRACED).
    untraced: ClassVar[Mapping[str, Any]] = MappingProxyType({"trace_level": "none"})

    def params(self, setup: B, point: RunPoint) -> dict[str, Any]:
        """Template variables (or program arguments) of one run: validated numbers and enums."""
        raise NotImplementedError(f"{type(self).__name__}: params()")

    def parse_args(self, setup: B, point: RunPoint) -> dict[str, Any]:
        """Parser variables of one run (the measurement window, the bottleneck, ...)."""
        raise NotImplementedError(f"{type(self).__name__}: parse_args()")

    def parser_for(self, setup: B, point: RunPoint) -> str:
        """The streamed parser of one run (default: `parser`)."""
        return self.parser

    def check(self, setup: B) -> list[str]:
        """Config problems of running on this simulator, each naming its key (none by default)."""
        return []

    def parsers(self) -> tuple[str, ...]:
        """Every parser a batch of these runs may read (the workflow's inputs)."""
        named = (self.parser, *self.other_parsers, self.tally_parser, self.side_parser)
        return tuple(p for p in named if p)


class OnBlock(Declaration[Block]):
    """A study's declaration: planned from its block, a tally stream read by `tally_parser`."""

    def parser_for(self, setup: Block, point: RunPoint) -> str:
        """`tally_parser` for a tally stream (config trace_level tally) when there is one, else
        `parser`."""
        if self.tally_parser and setup.get("trace_level") == "tally":
            return self.tally_parser
        return self.parser


@dataclass(frozen=True)
class Side:
    """A study's side runs of one kind (e.g. hstcp's two-flow runs): a declaration on one
    simulator, the block it plans from, and its run points (each in its own folder, RunPoint
    folder). They run as a scope of the one batch rule, as the study's grid does."""

    simulator: str
    declaration: Declaration[Block]
    setup: Callable[[Block], Block]
    points: Callable[[Block], list[RunPoint]]
