"""The vegas config: the default grid, bad values rejected by key, reasons for unstated keys."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from vegas_tiny import TINY, sweep

from bufrepro.kit import configs
from bufrepro.pipeline import configuration
from bufrepro.studies.vegas import STUDY
from bufrepro.studies.vegas.params import bottleneck_delay_ms
from conftest import merged


def test_default_config_valid() -> None:
    block = configuration.load()["vegas"]
    pts = STUDY.points(block)
    assert len(pts) == len(set(pts)) == 68  # packet 2 x 5 x 2 starts, rtt 2 x 12 x 2 starts
    assert len(block["seeds"]) >= 10
    assert {p[1] for p in pts} == {"standard", "spacing"}
    # Table I's 50 ms bottleneck is the packet sweep's 108 ms round trip.
    assert bottleneck_delay_ms(block, 108) == 50


def test_quick_profile_is_valid() -> None:
    block = configuration.load(profile="quick")["vegas"]
    # 2 variants x (2 packet sizes + 2 RTTs), 2 seeds.
    assert len(STUDY.runs(block)) == 2 * (2 + 2) * 2
    assert block["setups"]["rtt"] == {"duration_s": 40, "warmup_s": 0}


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"grid": [sweep("a", "packet", rtt_ms=[8])]}, "grid[0].rtt_ms: 8 leaves no bottleneck"),
        ({"grid": [sweep("a", "packet", variant=["paced"])]}, "vegas.grid[0].variant[0]"),
        ({"grid": [sweep("a", "packet", packet_bytes=["big"])]}, "type integer"),
        ({"grid": [sweep("a", "packet", start_s=[100.0])]}, "grid[0].start_s: [100.0] not before"),
        ({"grid": [sweep("a", "packet"), sweep("a", "rtt")]}, "sweep names must be unique"),
        ({"monitor": {"series_seed": 99}}, "series_seed: 99 is not one of"),
        ({"wireless": {"cell_overlap_m": 600}}, "<= 499"),
        ({"bdp": {"upper_rtt_ms": [200]}}, "upper_rtt_ms: [200] not in"),
    ],
)
def test_bad_config_rejected(override: dict[str, Any], message: str) -> None:
    cfg = merged(TINY)
    cfg["vegas"] = configs.merge(cfg["vegas"], override)
    with pytest.raises(configs.ConfigError) as err:
        configuration.validate(cfg)
    assert message in str(err.value)


def test_packet_reading_needs_its_rtt() -> None:
    cfg = merged(TINY)
    del cfg["vegas"]["readings"]["packet"]["rtt_ms"]
    with pytest.raises(configs.ConfigError, match=r"readings\.packet\.rtt_ms: required"):
        configuration.validate(cfg)


def test_ns2_prefix_must_be_an_absolute_path() -> None:
    with pytest.raises(configs.ConfigError, match=r"backends\.ns2\.prefix"):
        configuration.validate(merged({**TINY, "backends": {"ns2": {"prefix": "rel; rm -rf /"}}}))


@pytest.mark.parametrize(
    ("old", "new"),
    [("ns2_prefix", "backends.ns2.prefix"), ("ns3_prefix", "backends.ns3.prefix")],
)
def test_a_moved_backend_key_is_refused_naming_its_new_key(old: str, new: str) -> None:
    with pytest.raises(configs.ConfigError) as err:
        configuration.validate(merged({**TINY, old: "/opt/sim"}))
    assert str(err.value).splitlines()[1:] == [f"  config key {old} is no longer read; set {new}"]


def test_every_unstated_key_has_a_reason() -> None:
    block = configuration.load()["vegas"]
    assert sorted(block["assumptions"]) == sorted(STUDY.unstated)
    cfg = copy.deepcopy(merged({}))
    del cfg["vegas"]["assumptions"]["readings.packet.start_s"]
    with pytest.raises(configs.ConfigError, match=r"'readings\.packet\.start_s'"):
        configuration.validate(cfg)
