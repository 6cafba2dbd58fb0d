"""One owner's runs on one simulator (a study on any backend, an experiment); the spec factory."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bufrepro.backends.base import RunSpec
from bufrepro.kit.grid import RunPoint


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Scenario:
    """What the engine needs of an owner (a study or an experiment) on one simulator: the
    scenario (a template or a program), its parsers, and per run point its template variables,
    its streamed parser and the parser's variables."""

    owner: str
    backend: str
    template: str
    params: Callable[[RunPoint], dict[str, Any]]
    parser_for: Callable[[RunPoint], str]
    parse_args: Callable[[RunPoint], dict[str, Any]]
    # Every parser a batch of these runs may read (the workflow's inputs; one is chosen per run).
    parsers: tuple[str, ...]
    stream: str = "out.tr"
    side_files: tuple[str, ...] = ()
    side_parser: str = ""
    kept_files: tuple[str, ...] = ()
    options: Mapping[str, str] = field(default_factory=_empty)
    # Keys params.json holds beside the run point, the template and its variables.
    record: Mapping[str, Any] = field(default_factory=_empty)


def spec(scenario: Scenario, point: RunPoint, base: Path = Path()) -> RunSpec:
    """A run's spec: its record (params.json), template, parser and parser variables."""
    record = {
        **point.as_dict(),
        **scenario.record,
        "template": scenario.template,
        "params": scenario.params(point),
    }
    return RunSpec(
        run_dir=base / point.run_dir,
        owner=scenario.owner,
        record=record,
        scenario=scenario.template,
        parser=scenario.parser_for(point),
        parser_args=scenario.parse_args(point),
        stream=scenario.stream,
        side_files=scenario.side_files,
        side_parser=scenario.side_parser,
        kept_files=scenario.kept_files,
        options=scenario.options,
    )
