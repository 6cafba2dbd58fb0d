"""Planning: batches of runs per job, run specs, and the studies' discovery."""

from __future__ import annotations

from typing import Any

import pytest

from bufrepro import registry
from bufrepro.kit.study import Study
from bufrepro.pipeline import configuration, plan
from conftest import merged


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
        own = study.scenarios()[study.own_simulator()]
        assert own.template.startswith(f"{name}/") and own.parser.startswith(f"{name}/")
        assert study.simulators() == tuple(study.scenarios())
        assert study.figures and study.reported and study.grid_keys


def test_unknown_study_is_named() -> None:
    with pytest.raises(KeyError, match="unknown study 'nosuch'; known: \\["):
        registry.get("nosuch")
