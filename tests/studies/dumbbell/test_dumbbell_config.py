"""config/dumbbell.yaml against its schema: defaults, bad values, reasons for unstated keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bufrepro import backends
from bufrepro.kit.configs import ConfigError, has_key, merge, read_yaml, validate
from bufrepro.studies.dumbbell import STUDY
from conftest import REPO

CONFIG = REPO / "config"


def _schema() -> dict[str, Any]:
    """config/dumbbell.schema.yaml mounted under the key `dumbbell`, as the full config holds it."""
    study = backends.study_schema(CONFIG / "dumbbell.schema.yaml")
    study.pop("$schema", None)
    defs = {**study.pop("$defs", {}), "dumbbell": study}
    return {
        "type": "object",
        "$defs": defs,
        "properties": {"dumbbell": {"$ref": "#/$defs/dumbbell", "default": {}}},
    }


def _validated(*overrides: Mapping[str, Any]) -> dict[str, Any]:
    cfg: dict[str, Any] = read_yaml(CONFIG / "dumbbell.yaml")
    for override in overrides:
        cfg = merge(cfg, override)
    return validate(cfg, _schema(), lambda c: STUDY.check(c["dumbbell"]))["dumbbell"]


def test_default_block_is_valid_and_complete() -> None:
    block = _validated()
    assert block["grid"]["buffer"] == [2, 3, 5, 6, 7, 8, 9, 10, 15, 30, 50]
    assert len(block["seeds"]) >= 10
    assert len(STUDY.runs(block)) == 1980


def test_every_unstated_key_has_a_reason_and_every_reason_a_key() -> None:
    block = _validated()
    assert sorted(block["assumptions"]) == sorted(STUDY.unstated)
    assert all(has_key(block, k) for k in block["assumptions"])


def test_quick_profile_is_valid() -> None:
    block = _validated(read_yaml(CONFIG / "profiles" / "quick" / "dumbbell.yaml"))
    assert len(STUDY.runs(block)) == 2 * 2 * 2 * 3 * 3
    assert block["measure"] == {"duration_s": 20, "warmup_s": 2}


@pytest.mark.parametrize(
    ("override", "key", "allowed"),
    [
        ({"grid": {"buffer": [-5]}}, "dumbbell.grid.buffer[0]", ">= 1"),
        ({"grid": {"plr": [1.0]}}, "dumbbell.grid.plr[0]", "< 1"),
        ({"grid": {"queue": ["SFQ"]}}, "dumbbell.grid.queue[0]", "['DropTail', 'RED', 'CoDel'"),
        (
            {"grid": {"bottleneck_mbps": ["fast"]}},
            "dumbbell.grid.bottleneck_mbps[0]",
            "type number",
        ),
        ({"tcp": {"agent": "Cubic"}}, "dumbbell.tcp.agent", "['Sack1', 'Newreno', 'Reno']"),
        ({"seeds": [0]}, "dumbbell.seeds[0]", ">= 1"),
        ({"measure": {"duration_s": "long"}}, "dumbbell.measure.duration_s", "type number"),
        ({"typo_key": 1}, "dumbbell", "known keys"),
    ],
)
def test_bad_values_name_key_and_allowed(override: dict[str, Any], key: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as err:
        _validated({"dumbbell": override})
    text = str(err.value)
    assert key in text
    assert allowed in text


def test_warmup_must_precede_end() -> None:
    with pytest.raises(ConfigError, match=r"warmup_s: 10 must be below"):
        _validated({"dumbbell": {"measure": {"duration_s": 10, "warmup_s": 10}}})


def test_red_min_threshold_must_be_below_max() -> None:
    with pytest.raises(ConfigError, match=r"red.min_th_frac: must be below red.max_th_frac"):
        _validated({"dumbbell": {"red": {"min_th_frac": 0.5, "max_th_frac": 0.5}}})


def test_numbers_as_text_are_accepted() -> None:
    # snakemake --config parses nested values with YAML's BaseLoader: every scalar is text.
    block = _validated(
        {"dumbbell": {"seeds": ["1"], "grid": {"buffer": ["5", "10"], "plr": ["0.02"]}}}
    )
    assert block["grid"]["buffer"] == [5, 10]
    assert block["grid"]["plr"] == [0.02]
    with pytest.raises(ConfigError, match=r"grid.buffer\[0\]: '5.5' is not of type"):
        _validated({"dumbbell": {"grid": {"buffer": ["5.5"]}}})
