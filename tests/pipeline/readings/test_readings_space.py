"""Spaces of readings: the shipped ones load, and an invalid space fails naming key and values."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from bufrepro import registry
from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import configuration
from bufrepro.pipeline.readings import space

SPACE: dict[str, Any] = {
    "parameters": {
        "tcp.max_rwnd_pkts": {"values": [5, 1000], "reason": "r"},
        "topology.bottleneck_delay_ms": {"range": [1, 20], "reason": "r"},
    },
    "cells": {"queue": ["DropTail"], "plr": [0.05], "bottleneck_mbps": [0.5], "buffer": [5]},
    "seeds": [1, 2],
    "metrics": ["tcp_delay_ms_mean"],
    "train": {"seed_file": ["000"]},
}


@pytest.fixture(scope="module")
def cfg() -> dict[str, Any]:
    return configuration.load(profile="")


def _with(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(SPACE)
    out.update(changes)
    return {"dumbbell": out}


@pytest.mark.parametrize("profile", ["", "quick"])
def test_the_dumbbell_space_loads_in_each_profile(profile: str) -> None:
    cfg = configuration.load(profile=profile)
    sp = space.load(cfg, "dumbbell", space.files("dumbbell", profile))
    assert sp["train"] == {"buffer": [5]}
    assert sp.held == []
    assert space.planned_runs(cfg, sp) <= sp["max_runs"]
    if profile == "quick":
        assert [p.key for p in sp.parameters] == ["tcp.mss_bytes", "tcp.max_rwnd_pkts"]


STUDIES = ("dumbbell", "ramya", "vegas", "hstcp")


@pytest.mark.parametrize("profile", ["", "quick"])
@pytest.mark.parametrize("study", STUDIES)
def test_every_space_is_evaluated_within_its_budget(profile: str, study: str) -> None:
    cfg = configuration.load(profile=profile)
    sp = space.load(cfg, study, space.files(study, profile))
    assert sp["evaluate"] is True
    assert space.off_grid(cfg, sp) == {}
    assert 0 < space.runs_per_reading(cfg, sp)
    assert 0 < space.planned_runs(cfg, sp) <= (sp["max_runs"] or 10**9)


def test_a_reading_of_table_level_values_runs_each_tables_cells(cfg: dict[str, Any]) -> None:
    from bufrepro.pipeline.readings import runs

    sp = space.load(cfg, "ramya", space.files("ramya", ""))
    values = {"readings.table1.tcp": "Reno", "readings.table5.bottleneck_mbps": 0.5}
    reading = runs.make(cfg, sp, "r", values)
    points = {
        (p.get("setup"), p.get("tcp"), p.get("bottleneck_mbps"), p.get("buffer"))
        for p in registry.get("ramya").runs(reading.block)
    }
    # Table 1 at its configured buffers, Table 5 at the cells' buffers it has, each at the
    # reading's values; the latency sweeps (no published table) are left out.
    assert points == {("table1", "Reno", 0.5, b) for b in (10, 50, 100, 500)} | {
        ("table5", "Newreno", 0.5, b) for b in (1, 3, 6, 25, 50, 100)
    }
    assert reading.block["readings"]["table1"]["tcp"] == "Reno"


@pytest.mark.parametrize("study", STUDIES)
def test_each_space_covers_every_unstated_parameter(cfg: dict[str, Any], study: str) -> None:
    sp = space.load(cfg, study, space.files(study, ""))
    declared = {p.key for p in sp.parameters} | set(sp["fixed"])
    assert set(registry.get(study).unstated) <= declared
    assert all(spec["reason"].strip() for spec in sp["parameters"].values())
    assert all(spec["reason"].strip() for spec in sp["fixed"].values())


def test_a_valid_space_is_defaulted(cfg: dict[str, Any]) -> None:
    sp = space.validate(cfg, "dumbbell", _with())
    assert sp["sensitivity"]["method"] == "morris" and sp["calibration"]["method"] == "lhs"
    # Confirmation: the 3 best readings and the a-priori one, at seeds 1-5 (its defaults).
    assert space.readings_count(sp) == {
        "sensitivity": 4 * 3,
        "calibration": 16 + 1,
        "confirmation": 3 + 1,
    }
    assert space.runs_per_reading(cfg, sp) == 2
    assert sp["confirmation"]["seeds"] == [1, 2, 3, 4, 5]
    conf = space.runs_per_reading(cfg, sp, sp["confirmation"]["seeds"])
    assert conf == 5  # one cell x 5 seeds (the space: one cell x 2 seeds)
    assert space.planned_runs(cfg, sp) == 12 * 2 + 17 * 2 + 4 * conf


def test_screening_cells_narrow_the_screening_runs_only(cfg: dict[str, Any]) -> None:
    cells = {"queue": ["DropTail"], "plr": [0.05], "bottleneck_mbps": [0.5], "buffer": [5, 10]}
    wide = space.validate(cfg, "dumbbell", _with(cells=cells))
    narrow = space.validate(
        cfg, "dumbbell", _with(cells=cells, sensitivity={"cells": {"buffer": [10]}})
    )
    assert space.runs_per_reading(cfg, wide) == space.runs_per_reading(cfg, narrow) == 4
    assert space.runs_per_reading(cfg, narrow, (), narrow["sensitivity"]["cells"]) == 2
    # Screening: 12 readings x 2 runs fewer; calibration and confirmation run both buffers.
    assert space.planned_runs(cfg, wide) - space.planned_runs(cfg, narrow) == 12 * 2
    from bufrepro.pipeline.readings import sensitivity

    readings = sensitivity.make_readings(cfg, narrow, sensitivity.design(narrow)[:1])
    assert readings[0].block["grid"]["buffer"] == [10]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"parameters": {"tcp.no_such_key": {"values": [1], "reason": "r"}}},
            "dumbbell.parameters.tcp.no_such_key: names no setting of the dumbbell block",
        ),
        (
            {"parameters": {"tcp.agent": {"values": ["Cubic"], "reason": "r"}}},
            "dumbbell.parameters.tcp.agent: value 'Cubic' is not allowed",
        ),
        (
            {"parameters": {"tcp.agent": {"values": ["Reno"]}}},
            "'reason' is a required property",
        ),
        (
            {
                "parameters": {
                    "red.q_weight": {"range": [0.001, 0.01], "scale": "cubic", "reason": "r"}
                }
            },
            "allowed: ['linear', 'log']",
        ),
        (
            {"parameters": {"red.q_weight": {"values": [0.1], "range": [0, 1], "reason": "r"}}},
            "give exactly one of 'values' or 'range'",
        ),
        ({"cells": {"bandwidth": [0.5]}}, "cells.bandwidth: not a grid key of dumbbell; allowed:"),
        ({"metrics": ["latency"]}, "metrics: 'latency' is not a metric of dumbbell; allowed:"),
        ({"select": ["tcp.agent"]}, "select: 'tcp.agent' is not a parameter"),
        ({"overrides": {"measure.length_s": 3}}, "overrides.measure.length_s: names no setting"),
        ({"train": {"paper": ["000"]}}, "dumbbell.train.paper: not a column of the diff"),
        ({"max_runs": 3}, "dumbbell.max_runs: the stages plan 78 runs, more than the budget 3"),
        ({"cells": {"buffer": [0]}}, "cells/seeds/overrides"),
        (
            {"sensitivity": {"cells": {"scenario": ["s1"]}}},
            "dumbbell.sensitivity.cells.scenario: not a key of the space's cells; allowed:",
        ),
        (
            {"sensitivity": {"cells": {"buffer": [5, 7]}}},
            "dumbbell.sensitivity.cells.buffer: [7] not among the space's cells; allowed: [5]",
        ),
    ],
)
def test_an_invalid_space_fails_naming_the_key(
    cfg: dict[str, Any], change: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as err:
        space.validate(cfg, "dumbbell", _with(**change))
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("study", "change", "message"),
    [
        (
            "ramya",
            {"cells": {"setup": ["latency"]}},
            "ramya.cells: {'setup': ['latency'], 'buffer': [1, 3, 6, 10, 25, 50, 100, 500]} "
            "leave no run",
        ),
        (
            "ramya",
            {"parameters": {"readings.table1.tcp": {"values": ["Cubic"], "reason": "r"}}},
            "ramya.parameters.readings.table1.tcp: value 'Cubic' is not allowed",
        ),
        (
            "vegas",
            {"cells": {"packet_bytes": [333]}},
            "'packet_bytes': [333], 'rtt_ms': [60, 120]} leave no run that the diff reads",
        ),
        (
            "hstcp",
            {"metrics": ["jain_twoflow"]},
            "'jain_twoflow' is not a metric of hstcp (the readings run its grid only",
        ),
    ],
)
def test_an_invalid_space_of_each_study_fails_before_any_run(
    cfg: dict[str, Any], study: str, change: dict[str, Any], message: str
) -> None:
    merged = space.configs.merge(
        space.configs.read_yaml(space.files(study, "")[0]), {study: change}
    )
    with pytest.raises(ConfigError) as err:
        space.validate(cfg, study, merged)
    assert message in str(err.value)


def test_a_study_not_selected_is_named(cfg: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="'nope' is not selected"):
        space.validate(cfg, "nope", {"nope": SPACE})


def test_cells_off_the_configured_grid_are_named(cfg: dict[str, Any]) -> None:
    sp = space.validate(cfg, "dumbbell", _with())
    assert space.off_grid(cfg, sp) == {}
    narrow = {
        **cfg,
        "dumbbell": {**cfg["dumbbell"], "grid": {**cfg["dumbbell"]["grid"], "buffer": [7]}},
    }
    assert space.off_grid(narrow, sp) == {"buffer": [5]}


def _properties(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    out = []
    if isinstance(node, dict):
        for key, sub in node.get("properties", {}).items():
            out.append((f"{path}.{key}", sub))
            out += _properties(sub, f"{path}.{key}")
        if isinstance(node.get("additionalProperties"), dict):
            out += _properties(node["additionalProperties"], f"{path}.*")
    return out


def test_every_schema_key_has_a_description_and_a_default() -> None:
    schema = space.configs.read_yaml(space.SCHEMA_PATH)
    # A parameter's own value set or range, its reason, and the one training column given
    # have no sensible default.
    no_default = {".parameters.*.values", ".parameters.*.range", ".parameters.*.reason"}
    no_default |= {".fixed.*.reason"}
    no_default |= {".train.table", ".train.block", ".train.seed_file"}
    for path, sub in _properties(schema):
        assert sub.get("description"), path
        assert "default" in sub or path in no_default, path


def test_cross_key_rules_judge_whole_readings_not_single_values(cfg: dict[str, Any]) -> None:
    from bufrepro.pipeline.readings import runs

    short = {**cfg, "dumbbell": {**cfg["dumbbell"], "measure": {**cfg["dumbbell"]["measure"]}}}
    short["dumbbell"]["measure"]["duration_s"] = 6
    params = {
        "measure.warmup_s": {"values": [0, 8], "reason": "r"},
        "measure.duration_s": {"values": [6, 20], "reason": "r"},
    }
    sp = space.validate(short, "dumbbell", _with(parameters=params))  # warm-up 8 alone is fine
    assert runs.make(short, sp, "ok", {"measure.warmup_s": 8, "measure.duration_s": 20})
    with pytest.raises(ConfigError, match=r"dumbbell.measure.warmup_s: 8 must be below"):
        runs.make(short, sp, "bad", {"measure.warmup_s": 8, "measure.duration_s": 6})


def test_a_vegas_reading_runs_the_tables_cells_only(cfg: dict[str, Any]) -> None:
    from bufrepro.pipeline.readings import runs

    sp = space.load(cfg, "vegas", space.files("vegas", ""))
    reading = runs.make(cfg, sp, "r", {"readings.packet.rtt_ms": 150})
    cells = {
        (p.get("setup"), p.get("variant"), p.get("packet_bytes"), p.get("rtt_ms"))
        for p in registry.get("vegas").runs(reading.block)
    }
    # Tables II-III (both variants) at the reading's RTT, Table IV (spaced Vegas only) at the
    # cells' RTTs: standard Vegas over the RTT sweep is compared by no published table.
    packet = {("packet", v, b, 150) for v in ("standard", "spacing") for b in (256, 512, 1024)}
    assert cells == packet | {("rtt", "spacing", 512, r) for r in (60, 120)}
    assert space.runs_per_reading(cfg, sp) == 8 * 3


def test_a_reading_the_study_cannot_run_fails_before_any_run(
    cfg: dict[str, Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ramya's 'total' buffer counting cannot read Table 5's 1-frame cell (ns-2's DropTail limit_ 1
    # drops every packet): a space that offers it fails in the stage's first step, naming the key,
    # before any reading's run (none is started).
    from bufrepro.pipeline.readings import runs, sensitivity

    raw = space.configs.read_yaml(space.files("ramya", "")[0])
    raw["ramya"]["parameters"]["topology.buffer_counts"] = {
        "values": ["waiting", "total"],
        "reason": "r",
    }
    del raw["ramya"]["fixed"]["topology.buffer_counts"]
    sp = space.validate(cfg, "ramya", raw)
    started: list[Any] = []
    monkeypatch.setattr(runs, "run_all", lambda *a: started.append(a))
    with pytest.raises(ConfigError, match=r"ramya\.topology\.buffer_counts: 'total' cannot"):
        sensitivity.run(cfg, sp, 1, tmp_path / "s.csv", tmp_path / "s.png", tmp_path / "s.json")
    assert started == []


def test_a_parameter_acting_on_no_training_cell_is_held_and_listed() -> None:
    parameters = {
        "red.q_weight": {"values": [-1, 0.002], "reason": "r", "acts_on": {"queue": ["RED"]}},
        "tcp.pacing": {"values": [False, True], "reason": "r"},
    }
    raw = {"parameters": parameters, "select": [], "train": {"queue": ["DropTail"]}}
    assert space.Space("hstcp", raw).held == ["red.q_weight"]
    assert space.Space("hstcp", {**raw, "train": {"buffer_frac": [0.1]}}).held == []


def test_each_metric_has_its_rule_from_the_claims() -> None:
    cfg = configuration.load(profile="")
    hstcp = space.load(cfg, "hstcp", space.files("hstcp", "")).rules
    assert hstcp["loss_rate"].factor == 3 and hstcp["loss_rate"].threshold == 0
    assert hstcp["loss_rate"].event == pytest.approx(2.7e-7)
    assert hstcp["link_utilisation"].threshold == pytest.approx(math.log1p(0.011))
    dumbbell = space.load(cfg, "dumbbell", space.files("dumbbell", "")).rules
    assert dumbbell["tcp_throughput_kbps"].threshold == pytest.approx(math.log1p(0.10))
    assert dumbbell["tcp_drops_total"].event == 1.0
