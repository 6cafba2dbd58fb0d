"""A third simulator is a plug-in: a module in a folder on the simulators package's path, and no
engine file touched, is found, listed in the config schema, validated and run by the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_backend import fake_spec

from bufrepro import backends
from bufrepro.backends import simulators
from bufrepro.backends.base import Backend, execute
from bufrepro.backends.runall import execute_all
from bufrepro.kit import configs
from bufrepro.pipeline import configuration
from conftest import REPO

PLUGIN = '''"""A third simulator for the tests: the fake backend of fake_backend.py."""

from fake_backend import Fake


def make(settings):
    return Fake()
'''


@pytest.fixture
def third(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The fake backend registered as a simulator called "fake", for this test only."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "fake.py").write_text(PLUGIN, encoding="utf-8")
    monkeypatch.setattr(simulators, "__path__", [*simulators.__path__, str(folder)])
    return "fake"


def test_a_third_simulator_is_found_and_satisfies_the_protocol(third: str) -> None:
    assert backends.names() == ["fake", "ns2", "ns3"]
    made = backends.get(third, {})
    members = [*Backend.__annotations__, *(n for n in vars(Backend) if not n.startswith("_"))]
    assert {"queues", "missing", "server", "scenario"} <= set(members)
    assert "untraced" not in members  # a declaration says it (Declaration.untraced)
    assert made.name == third and all(hasattr(made, m) for m in members)
    assert backends.queues(third) == ("DropTail",) and backends.missing(third) == ""


def test_the_schema_lists_the_third_simulator_and_its_queues(third: str) -> None:
    top = configuration.schema()["properties"]
    assert third in top["simulators"]["additionalProperties"]["items"]["enum"]
    queues = top["simulator_queues"]["additionalProperties"]["additionalProperties"]["items"]
    assert queues["enum"][:2] == ["DropTail", "RED"]
    with pytest.raises(configuration.ConfigError, match="simulators"):
        configuration.validate({"simulators": {"dumbbell": ["ns2", "ns4"]}})


def test_the_engine_runs_a_third_simulator_alone_and_in_a_batch(third: str, tmp_path: Path) -> None:
    sim = backends.get(third, {})
    first = execute(sim, fake_spec(tmp_path / "one"))
    assert first == "ran"
    meta = json.loads((tmp_path / "one" / "run.json").read_text(encoding="utf-8"))
    assert meta["simulator"] == third and meta["simulator_version"] == "1"
    assert (tmp_path / "one" / "metrics.tsv").read_text() == "acct_ok\t1\nbytes\t300\nevents\t3\n"
    done = execute_all(sim, [fake_spec(tmp_path / "two")], False, "runs of the fake")
    assert [d.status for d in done] == ["ran"]


def test_a_backend_names_the_files_its_runs_read() -> None:
    # The batch rule's inputs are what the backend says (no tcl/ or awk/ glob in the rules).
    ns2 = backends.get("ns2", {})
    templates = ns2.scenario_files("dumbbell/dumbbell.tcl.j2")
    assert "tcl/dumbbell/dumbbell.tcl.j2" in templates
    assert any(f.startswith("tcl/lib/") for f in templates)
    parsers = ns2.parsers.files(["dumbbell/dumbbell.awk"])
    assert parsers[0] == "awk/dumbbell/dumbbell.awk" and parsers[1].startswith("awk/lib/")
    assert all((REPO / f).is_file() for f in [*templates, *parsers])
    assert backends.get("ns3", {}).scenario_files("link") == []


BLUE = '''"""A simulator for the tests: its table of queues has one that no other has."""

from fake_backend import Fake


class Blue(Fake):
    queues = ("DropTail", "Blue")


def make(settings):
    return Blue()
'''


def test_a_queue_in_a_backends_table_is_in_the_study_grids_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "blue.py").write_text(BLUE, encoding="utf-8")
    monkeypatch.setattr(simulators, "__path__", [*simulators.__path__, str(folder)])
    top = configuration.schema()
    for study in ("dumbbell", "hstcp"):
        grid = top["$defs"][study]["properties"]["grid"]["properties"]
        assert "Blue" in grid["queue"]["items"]["enum"]
        configs.validate({study: {"grid": {"queue": ["Blue"]}}}, top)
    with pytest.raises(configuration.ConfigError) as refused:
        configs.validate({"dumbbell": {"grid": {"queue": ["Green"]}}}, top)
    problem = str(refused.value).split("\n  ", 1)[1]
    assert "\n" not in problem and problem.startswith("config key dumbbell.grid.queue"), problem
    assert all(q in problem for q in ("DropTail", "RED", "CoDel", "Blue")), problem
