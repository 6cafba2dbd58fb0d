"""Planning: batches of runs per job, run specs, and the studies' discovery."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from bufrepro import backends, registry
from bufrepro.kit.declaration import Declaration
from bufrepro.kit.experiment import Experiment
from bufrepro.kit.study import Study
from bufrepro.pipeline import configuration, plan
from conftest import REPO, merged

# What a study or an experiment kind no longer carries: its runs are declared per simulator.
PLANNING = (
    "backend",
    "backend_options",
    "template",
    "parser",
    "stream",
    "tally_parser",
    "side_files",
    "kept_files",
    "params",
    "parse_args",
    "parser_for",
    "backend_params",
    "backend_check",
    "untraced",
)


def test_batches_cover_every_run_once_in_grid_order(tiny_cfg: dict[str, Any]) -> None:
    cfg = configuration.validate(merged({**tiny_cfg, "runs_per_job": {"dumbbell": 5}}))
    runs = registry.get("dumbbell").runs(cfg["dumbbell"])
    batches = plan.batches(cfg, "dumbbell")
    assert [p for b in batches for p in b] == runs
    assert [len(b) for b in batches] == [5, 5, 2]


def test_batch_names_round_trip_and_reject_others() -> None:
    assert plan.batch_name(7) == "b0007" and plan.batch_index("b0007") == 7
    with pytest.raises(ValueError, match="not a batch name"):
        plan.batch_index("../b1")


def test_spec_holds_record_and_parser_variables(tiny_cfg: dict[str, Any]) -> None:
    point = registry.get("dumbbell").runs(tiny_cfg["dumbbell"])[0]
    spec = plan.spec(tiny_cfg, point)
    assert spec.record["study"] == "dumbbell" and spec.record["seed"] == point.seed
    assert spec.record["template"] == "dumbbell/dumbbell.tcl.j2"
    assert spec.parser == "dumbbell/dumbbell_tally.awk"  # trace_level tally, the default
    assert spec.parser_args["t1"] == tiny_cfg["dumbbell"]["measure"]["duration_s"]
    assert str(spec.run_dir) == point.run_dir


def test_every_discovered_study_is_a_complete_plug_in() -> None:
    for name, study in registry.discover().items():
        assert isinstance(study, Study) and study.name == name
        own = study.declarations()[study.own_simulator()]
        assert own.template.startswith(f"{name}/") and own.parser.startswith(f"{name}/")
        assert study.simulators() == tuple(study.declarations())
        assert study.figures and study.reported and study.grid_keys


def test_unknown_study_is_named() -> None:
    with pytest.raises(KeyError, match="unknown study 'nosuch'; known: \\["):
        registry.get("nosuch")


def _program_files(simulator: str, declaration: Declaration[Any]) -> list[Any]:
    """The scenario's source and its parsers, as the docs' "add a study" places them."""
    source = {"ns2": REPO / "tcl" / declaration.template, "ns3": REPO / "ns3"}[simulator]
    if simulator == "ns3":
        source = source / f"{declaration.template}.cc"
    return [source, *(REPO / "awk" / p for p in declaration.parsers())]


def test_every_owner_declares_its_runs_per_simulator_in_declarations_py() -> None:
    # docs/contributing.md, "Add a study": Study keeps its science; declarations.py its runs.
    assert not [m for m in PLANNING if hasattr(Study, m) or hasattr(Experiment, m)]
    owners: list[tuple[str, Any]] = [
        (f"studies.{n}", s.declarations()) for n, s in registry.discover().items()
    ]
    owners.append(("experiments.link", registry.kind("link").declarations()))
    for package, declared in owners:
        module = importlib.import_module(f"bufrepro.{package}.declarations")
        assert declared is module.DECLARATIONS, package
        for simulator, declaration in declared.items():
            assert simulator in backends.names() and isinstance(declaration, Declaration)
            missing = [f for f in _program_files(simulator, declaration) if not f.is_file()]
            assert not missing, (package, simulator, missing)
    assert {registry.get(n).own_simulator() for n in registry.names()} == {"ns2"}
