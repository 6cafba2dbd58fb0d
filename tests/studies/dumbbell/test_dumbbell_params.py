"""Template and parser variables of a dumbbell run, and the config checks the schema can't see."""

from __future__ import annotations

import copy
import re
from typing import Any

from bufrepro.kit.grid import RunPoint
from bufrepro.studies.dumbbell import STUDY
from bufrepro.studies.dumbbell.params import config_problems, tcp_fids, tcp_nodes

NS2 = STUDY.declarations()["ns2"]
NS3 = STUDY.declarations()["ns3"]


def _point(queue: str, buffer: int, bw: float = 0.5) -> RunPoint:
    values = (("queue", queue), ("plr", 0.05), ("bottleneck_mbps", bw), ("buffer", buffer))
    return RunPoint("dumbbell", values, 1)


def test_red_thresholds_derived_from_buffer(tiny_cfg: dict[str, Any]) -> None:
    block = tiny_cfg["dumbbell"]
    params = NS2.params(block, _point("RED", 5))
    assert params["red_min_th"] == 1.25 and params["red_max_th"] == 3.75
    small = NS2.params(block, _point("RED", 2))
    assert small["red_min_th"] == 1.0 and small["red_max_th"] == 2.0


def test_parse_args_name_window_and_bottleneck(tiny_cfg: dict[str, Any]) -> None:
    args = NS2.parse_args(tiny_cfg["dumbbell"], _point("DropTail", 5, bw=0.05))
    # The run's header, the same text the template writes (issue #17).
    fingerprint = args.pop("fingerprint")
    assert re.fullmatch(r"bufrepro dumbbell run=[0-9a-f]{16} seed=1 end=5", fingerprint)
    assert (
        fingerprint
        == NS2.params(tiny_cfg["dumbbell"], _point("DropTail", 5, bw=0.05))["fingerprint"]
    )
    # In flight at the end: within the longest transit, here the ACK path's: 1000 ACKs of at
    # most 80 B queued on 5 -> 4 at 50 kb/s (12.81 s) plus transmissions, delays and 1 ms.
    assert args.pop("max_age") == 12.829082
    assert args.pop("sizes") == "tcp:1500,tcp:40,cbr:1000"  # SACK: ACK sizes vary
    assert args.pop("hops").startswith("4-5:1.681000:0.251000,5-4:12.813800:0.023800,")
    assert args == {
        "t0": 1,
        "t1": 5,
        "t_end": 5,
        "link_from": 4,
        "link_to": 5,
        "link_bps": 50000,
        # the scenario's fingerprint the parser checks the trace against (issue #17)
        "n_nodes": 8,
        "links": "0-4,1-4,2-4,3-4,4-5,5-6,5-7",
        "link_delay": 0.01,
        # trace_level tally (the default): the parser reads ns's WiredTally stream
        "tally": 1,
    }


def test_fq_codel_may_hold_a_packet_longer_than_a_fifo(tiny_cfg: dict[str, Any]) -> None:
    """FQ-CoDel serves later packets of other flows first (deficit round robin, a flow that
    emptied first): the parser's longest wait on 4 -> 5 is kit.transit.queue_wait's (the run
    that waited past a FIFO's: tests/backends/test_ns3_tally.py); the others stay a FIFO's."""
    block = tiny_cfg["dumbbell"]
    fifo = NS3.parse_args(block, _point("CoDel", 3))
    for queue in ("FQ-CoDel", "FQ-CoDel-scaled"):
        fair = NS3.parse_args(block, _point(queue, 3))
        # a FIFO's 3 waiting + 1 packets of 1502 B at 0.5 Mb/s (96.128 ms) + 1 ms, then 3 rounds
        # in which each of the 3 other flows (3 TCP + CBR) has 2 turns of under 1514 + 1502 B
        assert fifo["hops"].startswith("4-5:0.097128:0.035032,")
        assert fair["hops"].startswith("4-5:0.965736:0.035032,")
        assert fair["hops"].split(",")[1:] == fifo["hops"].split(",")[1:]
        # the in-flight horizon stays a FIFO's (studies.dumbbell.ns3.parse_args)
        assert fair["max_age"] == fifo["max_age"] == 1.329626


def test_valid_block_has_no_problems(tiny_cfg: dict[str, Any]) -> None:
    assert STUDY.check(tiny_cfg["dumbbell"]) == []


def test_warmup_must_precede_end(tiny_cfg: dict[str, Any]) -> None:
    block = copy.deepcopy(tiny_cfg["dumbbell"])
    block["measure"].update(duration_s=10, warmup_s=10)
    assert STUDY.check(block) == [
        "config key dumbbell.measure.warmup_s: 10 must be below dumbbell.measure.duration_s (10)"
    ]


def test_red_thresholds_must_be_ordered(tiny_cfg: dict[str, Any]) -> None:
    block = copy.deepcopy(tiny_cfg["dumbbell"])
    block["red"].update(min_th_frac=0.75, max_th_frac=0.5)
    assert config_problems("dumbbell", block) == [
        "config key dumbbell.red.min_th_frac: must be below red.max_th_frac (0.75 >= 0.5)"
    ]


def test_buffer_counts_waiting_packets_for_both_queues(tiny_cfg: dict[str, Any]) -> None:
    block = copy.deepcopy(tiny_cfg["dumbbell"])
    assert block["topology"]["buffer_counts"] == "waiting"
    assert NS2.params(block, _point("DropTail", 5))["queue_limit"] == 6
    assert NS2.params(block, _point("RED", 5))["queue_limit"] == 5
    block["topology"]["buffer_counts"] = "ns2_limit"
    assert NS2.params(block, _point("DropTail", 5))["queue_limit"] == 5


def test_tcp_sources_keep_node_and_flow_numbers() -> None:
    assert tcp_nodes(3) == [0, 2, 3]
    assert tcp_nodes(1) == [0]
    assert tcp_nodes(5) == [0, 2, 3, 8, 9]
    # Flow id 9 is the CBR flow's.
    assert tcp_fids(11) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11]


def test_switches_render_as_tcl_booleans(tiny_cfg: dict[str, Any]) -> None:
    params = NS2.params(tiny_cfg["dumbbell"], _point("RED", 5))
    assert (params["tcp_syn"], params["red_bytes"]) == ("true", "false")
    assert params["node_ids"] == list(range(8))
