"""The one spec factory: every run's RunSpec, from an owner's declaration and a run point."""

# It sits in backends/, beside RunSpec (backends.base), so that every owner reaches it: the
# pipeline (a study's grid, an experiment) and a study's own side runs and tools (hstcp's
# two-flow, band, twin runs and its benchmark) alike. No other module constructs a RunSpec
# (tests/backends/test_factory.py).

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bufrepro.backends.base import RunSpec
from bufrepro.kit.declaration import Declaration
from bufrepro.kit.grid import RunPoint


@dataclass(frozen=True)
class Bound:
    """An owner's (a study's or an experiment's) declaration for one simulator, bound to what
    its runs are planned from (a study's block as that simulator runs it, an experiment's
    setup): all the engine needs to make any run's spec."""

    owner: str
    backend: str
    declaration: Declaration[Any]
    setup: Any

    @property
    def template(self) -> str:
        """What the simulator runs (a template under tcl/, a program of ns3/)."""
        return self.declaration.template

    @property
    def parsers(self) -> tuple[str, ...]:
        """Every parser a batch of these runs may read (the workflow's inputs)."""
        return self.declaration.parsers()

    @property
    def options(self) -> Mapping[str, str]:
        """The simulator's options for these runs."""
        return self.declaration.options


def spec(bound: Bound, point: RunPoint, base: Path = Path()) -> RunSpec:
    """A run point's spec: its record (params.json: the run point, its simulator, the template
    and its variables), parser and parser variables. Every run records its simulator, an
    owner's own as a further one's: which of the two it is, is its scope's role."""
    made, setup = bound.declaration, bound.setup
    record = {
        **point.as_dict(),
        "simulator": bound.backend,
        "template": made.template,
        "params": made.params(setup, point),
    }
    return recorded(
        bound,
        base / point.run_dir,
        record,
        made.parser_for(setup, point),
        made.parse_args(setup, point),
    )


def recorded(
    bound: Bound,
    run_dir: Path,
    record: Mapping[str, Any],
    parser: str,
    parser_args: Mapping[str, Any],
    side_parser: str | None = None,
) -> RunSpec:
    """A run's spec from its record (params.json: the template and its variables) and its
    parser with the parser's variables: what spec() makes of a run point, and what verify makes
    of a finished run's own files (side_parser: the recorded one, default the declaration's)."""
    made = bound.declaration
    return RunSpec(
        run_dir=run_dir,
        owner=bound.owner,
        record=dict(record),
        scenario=str(record["template"]),
        parser=parser,
        parser_args=dict(parser_args),
        stream=made.stream,
        side_files=made.side_files,
        side_parser=made.side_parser if side_parser is None else side_parser,
        kept_files=made.kept_files,
        options=made.options,
    )
