"""A test double of a simulator backend: its 'scenario' is a gawk program writing a tiny trace."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro.backends.awk import AWK
from bufrepro.backends.base import RunSpec

PARSER = str(Path(__file__).with_name("count.awk"))

SCENARIO = """BEGIN {{
    for (i = 1; i <= {packets}; i++) print i * 0.5, "{kind}", 100 > "{stream}"
    close("{stream}")
    if ({fail}) exit 3
    if (!{quiet}) print "BUFREPRO_DONE", {packets} * 0.5
}}
"""


class Fake:
    """Renders an AWK 'scenario', runs it with gawk, and reports its finish marker."""

    name = "fake"
    parsers = AWK
    queues = ("DropTail",)

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        """scenario.awk from the record's params."""
        return "scenario.awk", SCENARIO.format(stream=spec.stream, **spec.params)

    def simulate(self, spec: RunSpec) -> list[str]:
        """gawk -f scenario.awk."""
        return ["gawk", "-f", "scenario.awk"]

    def identity(self, spec: RunSpec) -> dict[str, str]:
        """A fixed identity."""
        return {
            "simulator": self.name,
            "simulator_binary": "gawk",
            "simulator_package": "fake",
            "simulator_sha256": "0",
            "simulator_version": "1",
        }

    def finish_time(self, stdout: str) -> float | None:
        """The time on the BUFREPRO_DONE line."""
        match = re.search(r"^BUFREPRO_DONE (\S+)$", stdout, re.MULTILINE)
        return float(match.group(1)) if match else None

    def requires(self, options: Mapping[str, str]) -> list[str]:
        """Nothing to build."""
        return []

    def scenario_files(self, scenario: str) -> list[str]:
        """None: the scenario is this module's text."""
        return []

    def missing(self) -> str:
        """gawk is there, or nothing runs."""
        return ""

    def server(self, spec: RunSpec) -> list[str]:
        """No run server: each run a process of its own."""
        return []


def fake_spec(where: Path, parser_args: Mapping[str, Any] | None = None, **params: Any) -> RunSpec:
    """A run of the fake backend in `where`, parsed by count.awk (default variables: t0 1)."""
    values = {"packets": 4, "kind": "tcp", "fail": 0, "quiet": 0, **params}
    return RunSpec(
        run_dir=where,
        owner="fake",
        record={"study": "fake", "seed": 1, "template": "-", "params": values},
        scenario="-",
        parser=PARSER,
        parser_args=dict(parser_args or {"t0": 1.0}),
    )
