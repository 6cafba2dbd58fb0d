"""The ramya grid of sweeps, its config checks, and the template and parser variables of a run."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from ramya_tiny import TINY, point, sweep, tiny_config

from bufrepro.kit.configs import ConfigError, merge
from bufrepro.pipeline import configuration
from bufrepro.studies.ramya import STUDY
from bufrepro.studies.ramya.params import queue_limit
from conftest import merged

NS2 = STUDY.declarations()["ns2"]


@pytest.fixture
def tiny_cfg() -> dict[str, Any]:
    return tiny_config()


def test_default_config_valid_and_sweeps_union(tiny_cfg: dict[str, Any]) -> None:
    full = configuration.load()["ramya"]
    pts = STUDY.points(full)
    assert len(pts) == len(set(pts))
    # latency/Newreno/0.5/102400/x1/500 is in both the ping and the rwnd sweep: it runs once.
    assert pts.count(("latency", "Newreno", 0.5, 102400, 1.0, 500)) == 1
    assert len(STUDY.runs(full)) == len(pts) * len(full["seeds"]) == 82 * 5
    runs = STUDY.runs(tiny_cfg["ramya"])
    assert len(runs) == 2 * (2 + 2 + 2 + 1)
    assert runs[0].run_dir == "results/ramya/runs/table1/Newreno/bw0.5/rwnd102400/d1/buf10/seed1"


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"setups": {"table5": {"duration_s": 5, "warmup_s": 5, "ping": False}}}, "warmup_s: 5"),
        ({"monitor": {"series_seed": 9}}, "series_seed: 9 is not one of"),
        ({"grid": [sweep("a", "table5", [1]), sweep("a", "table5", [2])]}, "must be unique"),
        ({"grid": [sweep("a", "table5", [0])]}, "ramya.grid[0].buffer[0]"),
        ({"topology": {"buffer_counts": "bytes"}}, "['waiting', 'total']"),
        (
            {"topology": {"buffer_counts": "total"}, "grid": [sweep("a", "table5", [1, 3])]},
            "ramya.topology.buffer_counts: 'total' cannot read a buffer of [1] frame(s)",
        ),
        ({"claims": {"optimum_low": 7}}, "ramya.claims.optimum_low: must not exceed"),
        ({"claims": {"drop_share_low": 0.5}}, "ramya.claims.drop_share_low: must not exceed"),
    ],
)
def test_bad_config_rejected(override: dict[str, Any], message: str) -> None:
    cfg = merged(TINY)
    cfg["ramya"] = merge(cfg["ramya"], override)
    with pytest.raises(ConfigError) as err:
        configuration.validate(cfg)
    assert message in str(err.value)


def test_every_unstated_key_has_a_reason() -> None:
    cfg = copy.deepcopy(merged({}))
    del cfg["ramya"]["assumptions"]["topology.buffer_counts"]
    with pytest.raises(ConfigError, match=r"'topology\.buffer_counts'"):
        configuration.validate(cfg)


def test_quick_profile_is_valid() -> None:
    block = configuration.load(profile="quick")["ramya"]
    assert STUDY.check(block) == []
    assert len(STUDY.runs(block)) == 16


def test_frames_map_to_ns2_queue_limit(tiny_cfg: dict[str, Any]) -> None:
    block = tiny_cfg["ramya"]
    assert queue_limit(block, 1) == 2
    total = merge(block, {"topology": {"buffer_counts": "total"}})
    assert queue_limit(total, 1) == 1
    p = NS2.params(block, point(tiny_cfg, "table5", 12, 1))
    assert p["queue_limit"] == 13 and p["window_pkts"] == 102400 // 536
    assert not p["ping_on"]
    assert NS2.params(block, point(tiny_cfg, "latency", 10, 1))["ping_on"]


def test_parse_args_name_window_and_bottleneck(tiny_cfg: dict[str, Any]) -> None:
    args = NS2.parse_args(tiny_cfg["ramya"], point(tiny_cfg, "table5", 12, 1))
    # The run's header, the same text the template writes (issue #17).
    fingerprint = args.pop("fingerprint")
    assert re.fullmatch(r"bufrepro ramya run=[0-9a-f]{16} seed=1 end=5", fingerprint)
    assert (
        fingerprint
        == NS2.params(tiny_cfg["ramya"], point(tiny_cfg, "table5", 12, 1))["fingerprint"]
    )
    # In flight at the end: within the longest transit of the run's paths (kit.transit), far
    # below the run; each link's own bounds, and the sizes the scenario sends.
    assert args.pop("max_age") == 0.983464
    assert args.pop("hops").startswith("0-1:0.447976:0.005304,1-0:0.066184:0.003336,")
    assert args.pop("sizes") == "tcp:576,tcp:40,ack:40,ping:84"
    assert args == {
        "t0": 0,
        "t1": 5,
        "t_end": 5,
        "link_from": 1,
        "link_to": 2,
        "link_bps": 1000000,
        # the scenario's fingerprint the parser checks the trace against (issue #17)
        "n_nodes": 6,
        "links": "0-1,1-2,2-3,4-1,2-5",
        "link_delay": 0.02,
        # trace_level tally (the default): the parser reads ns's WiredTally stream
        "tally": 1,
    }


def test_grid_text_lists_setups_and_sweeps(tiny_cfg: dict[str, Any]) -> None:
    text = STUDY.grid_text(tiny_cfg["ramya"])
    assert text["setups"][2] == "latency: 5 s, measured over [0, 5] s, with ping"
    assert text["sweep rwnd"][3] == "rwnd 4096/102400 B"
    assert list(text) == ["setups", "sweep table1", "sweep table5", "sweep ping", "sweep rwnd"]
