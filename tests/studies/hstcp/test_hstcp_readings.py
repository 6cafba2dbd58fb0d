"""The space files of the readings contract (config/readings/S.yaml and the quick slices).

The engine that reads them lands separately; until then this checks them against the contract
and the study configs: every key names a key of config/S.yaml, every unstated parameter is
varied or held with a reason, and every value (each end of a range) is a valid config. hstcp,
ramya and vegas share it (their spaces were written together).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from bufrepro import registry
from bufrepro.kit import configs
from bufrepro.pipeline import configuration
from bufrepro.studies.hstcp.diff import CLAIM_METRICS
from bufrepro.studies.ramya.cells import TABLES as RAMYA_TABLES
from bufrepro.studies.vegas.tables import METRICS as VEGAS_METRICS
from conftest import REPO

STUDIES = ("hstcp", "ramya", "vegas")
# The metric names each study's diff writes in its `metric` column.
DIFF_METRICS = {
    "hstcp": set(CLAIM_METRICS.values()),
    "ramya": {m for _, cols in RAMYA_TABLES.values() for m in cols.values()},
    "vegas": set(VEGAS_METRICS.values()),
}
# Diff columns a `train` split may name, per study: within each queue, by buffer, rate or
# scenario, so that every parameter reaches a training row.
TRAIN_COLUMNS = {
    "hstcp": {"queue", "scenario", "buffer_frac"},
    "ramya": {"table", "buffer"},
    "vegas": {"table"},
}


def space(study: str, profile: str = "") -> dict[str, Any]:
    """A study's space, merged with a profile's slice as the study config is."""
    base = yaml.safe_load((REPO / "config" / "readings" / f"{study}.yaml").read_text())
    out: dict[str, Any] = base[study]
    if profile:
        path = REPO / "config" / "profiles" / profile / "readings" / f"{study}.yaml"
        out = configs.merge(out, yaml.safe_load(path.read_text())[study])
    return out


def set_dotted(block: dict[str, Any], dotted: str, value: Any) -> None:
    """Set a dotted key of a (nested) block in place."""
    *parents, last = dotted.split(".")
    node = block
    for part in parents:
        node = node[part]
    node[last] = value


def values_of(spec: dict[str, Any]) -> list[Any]:
    """The values a parameter takes, or its range's ends."""
    return list(spec["values"]) if "values" in spec else list(spec["range"])


@pytest.mark.parametrize("profile", ["", "quick"])
@pytest.mark.parametrize("study", STUDIES)
def test_space_keys_are_keys_of_the_study_config(study: str, profile: str) -> None:
    s = space(study, profile)
    block = configuration.load(profile=profile)[study]
    params, fixed = s["parameters"], s.get("fixed", {})
    for key in [*params, *fixed, *s.get("overrides", {})]:
        assert configs.has_key(block, key), f"{study}: {key} is no key of config/{study}.yaml"
    assert not set(params) & set(fixed), "a key is either varied or fixed"
    spec = registry.get(study)
    assert set(block["assumptions"]) <= set(params) | set(fixed), (
        f"{study}: unstated parameters neither varied nor fixed: "
        f"{sorted(set(block['assumptions']) - set(params) - set(fixed))}"
    )
    assert set(s["cells"]) <= set(spec.grid_keys)
    assert s["metrics"] and set(s["metrics"]) <= DIFF_METRICS[study]
    assert s["distance"] == "median_abs_log"
    ((column, train),) = s["train"].items()
    assert column in TRAIN_COLUMNS[study] and train
    assert s["sensitivity"]["method"] in {"morris", "sobol"}
    assert s["calibration"]["method"] in {"lhs", "optuna"}
    assert int(s["calibration"]["readings"]) >= 1 and s["seeds"]


@pytest.mark.parametrize("profile", ["", "quick"])
@pytest.mark.parametrize("study", STUDIES)
def test_every_parameter_has_a_reason_and_one_kind_of_domain(study: str, profile: str) -> None:
    for key, spec in space(study, profile)["parameters"].items():
        assert len(str(spec.get("reason", ""))) >= 10, f"{study}.{key}: no reason"
        assert ("values" in spec) != ("range" in spec), f"{study}.{key}: values or range"
        if "range" in spec:
            lo, hi = spec["range"]
            assert lo < hi and spec.get("scale", "linear") in {"linear", "log"}
            assert spec.get("scale", "linear") == "linear" or lo > 0
        else:
            assert spec["values"] and len(set(map(str, spec["values"]))) == len(spec["values"])
    for key, spec in space(study, profile).get("fixed", {}).items():
        assert len(str(spec.get("reason", ""))) >= 10, f"{study}.{key}: no reason"


@pytest.mark.parametrize("profile", ["", "quick"])
@pytest.mark.parametrize("study", STUDIES)
def test_every_value_is_a_valid_config(study: str, profile: str) -> None:
    """One parameter at a time at each value (a range: each end), with the space's overrides:
    the config validates (schema and the study's own checks). Reading selectors (readings.*),
    which name a swept cell, are set with that cell swept. Readings run on the study's own
    simulator alone (e.g. hstcp's paced readings, which ns-3 cannot run)."""
    s = space(study, profile)
    base = configuration.load(profile=profile)
    base["studies"] = [study]
    base["simulators"] = {study: [registry.get(study).own_simulator()]}
    for key, value in s.get("overrides", {}).items():
        set_dotted(base[study], key, value)
    for key, spec in s["parameters"].items():
        for value in values_of(spec):
            cfg = copy.deepcopy(base)
            set_dotted(cfg[study], key, value)
            if key.startswith("readings.") and isinstance(cfg[study]["grid"], list):
                grid_key = key.split(".")[-1]
                for sweep in cfg[study]["grid"]:
                    if grid_key in sweep and value not in sweep[grid_key]:
                        sweep[grid_key] = [*sweep[grid_key], value]
            try:
                configuration.validate(cfg)
            except configuration.ConfigError as err:
                pytest.fail(f"{study}: {key} = {value!r} is not a valid config: {err}")


def test_hstcp_space_holds_the_issues_band() -> None:
    params = space("hstcp")["parameters"]
    assert params["tcp.pacing"]["values"] == [False, True]
    assert params["topology.access_ratio"]["values"] == [0.2, 1, 10]


def test_space_files_exist_for_every_profile_slice() -> None:
    for study in STUDIES:
        assert Path(REPO / "config" / "profiles" / "quick" / "readings" / f"{study}.yaml").is_file()
