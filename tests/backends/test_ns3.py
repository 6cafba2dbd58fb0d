"""The ns-3 backend with the real program on tiny dumbbell runs: physics, buffer, failures."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends
from bufrepro.backends import streamsum
from bufrepro.backends.base import RunFailed, execute
from bufrepro.backends.simulators import ns3
from bufrepro.kit import configs, tables
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration, plan
from conftest import TINY, merged


@pytest.fixture(scope="module")
def built() -> None:
    """The programs, built by ns3/build.sh (reused when current); fails without libns3-dev."""
    if ns3.missing():
        pytest.fail(ns3.missing())
    subprocess.run(["bash", str(REPO_ROOT / "ns3" / "build.sh")], check=True)


def _cfg(**dumbbell: Any) -> dict[str, Any]:
    over = configs.merge(TINY, {"simulators": {"dumbbell": ["ns2", "ns3"]}, "dumbbell": dumbbell})
    return configuration.validate(merged(over))


def _point(cfg: dict[str, Any], queue: str, buffer: int, seed: int = 1) -> RunPoint:
    return next(
        p
        for batch in plan.batches(cfg, "dumbbell", "ns3")
        for p in batch
        if p.get("queue") == queue and p.get("buffer") == buffer and p.seed == seed
    )


def _run(cfg: dict[str, Any], point: RunPoint, where: Path, keep: bool = False) -> Path:
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    assert execute(backends.get("ns3", cfg), spec, keep) == "ran"
    return where


@pytest.mark.usefixtures("built")
def test_run_is_physical_and_records_ns3(tmp_path: Path) -> None:
    cfg = _cfg()
    point = _point(cfg, "DropTail", 5)
    assert point.run_dir.startswith("results/dumbbell/ns3/runs/")
    where = _run(cfg, point, tmp_path / "a")
    row = tables.read_run(where, "ns3")
    assert row["tcp_throughput_kbps"] + row["cbr_throughput_kbps"] <= 500 * 1.001
    assert 0.5 < row["link_utilisation"] <= 1.0 + 1e-6
    assert row["tcp_delay_ms_mean"] > 2 * 2 + 10
    meta = json.loads((where / "run.json").read_text())
    assert meta["simulator"] == "ns3" and meta["simulator_version"] == "ns-3.37"
    assert (
        meta["simulator_package"].startswith("libns3-dev 3.37")
        and len(meta["simulator_sha256"]) == 64
    )
    assert "-O2" in meta["build_flags"]


@pytest.mark.usefixtures("built")
def test_buffer_holds_what_ns2_holds(tmp_path: Path) -> None:
    """DropTail and RED at buffer 3 (buffer_counts waiting) hold at most 3 waiting packets,
    as ns-2's DropTail limit_ 4 and RED limit_ 3 do; the stream's header names the program."""
    cfg = _cfg(grid={"buffer": [3], "plr": [0.0]})
    for queue in ("DropTail", "RED"):
        where = _run(cfg, _point(cfg, queue, 3), tmp_path / queue, keep=True)
        lines = (where / "out.tr").read_text().splitlines()
        assert lines[1].startswith("#@ bufrepro-ns3-dumbbell 4 ns3=3.37")
        # the end line binds every line before it (count and checksum, as ns-2's StreamSum)
        assert lines[-1] == streamsum.end_line(line.encode() for line in lines[:-1]).decode()
        metrics = dict(
            line.split("\t") for line in (where / "metrics.tsv").read_text().splitlines()
        )
        assert float(metrics["link_queue_max_pkts"]) == 3, queue


@pytest.mark.usefixtures("built")
def test_same_seed_same_metrics_other_seed_other(tmp_path: Path) -> None:
    cfg = _cfg()
    a = _run(cfg, _point(cfg, "RED", 5, 1), tmp_path / "a")
    b = _run(cfg, _point(cfg, "RED", 5, 1), tmp_path / "b")
    c = _run(cfg, _point(cfg, "RED", 5, 2), tmp_path / "c")
    assert (a / "metrics.tsv").read_bytes() == (b / "metrics.tsv").read_bytes()
    assert (a / "metrics.tsv").read_bytes() != (c / "metrics.tsv").read_bytes()


@pytest.mark.usefixtures("built")
def test_a_stream_cut_short_fails_the_run(tmp_path: Path) -> None:
    cfg = _cfg()
    spec = dataclasses.replace(plan.spec(cfg, _point(cfg, "DropTail", 5)), run_dir=tmp_path)
    params = {**spec.params, "duration": 1}  # the program stops before the header's end
    bad = dataclasses.replace(spec, record={**spec.record, "params": params})
    with pytest.raises(RunFailed, match="reproduce with"):
        execute(backends.get("ns3", cfg), bad)
    assert not (tmp_path / "metrics.tsv").exists()


@pytest.mark.parametrize(
    "params",
    [
        {"queue": "RED; rm -rf /"},
        {"queue": "ns3::RedQueueDisc; rm"},
        {"tcp": "ns3::Tcp NewReno"},
        {"queueAttr": "Target=5ms;rm -rf /"},
        {"queueAttr": "Target=5ms,"},
        {"queueAttr": "Target=$(id)"},
        {"study": "ns3::TcpNewReno"},  # a type name only under --queue, --tcp, --recovery
        {"study": "Target=5ms"},  # an attribute list only under --queueAttr
    ],
)
def test_unsafe_argument_never_reaches_the_program(params: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="not a number, a word, an ns-3 type"):
        ns3.arguments(params)


def test_every_queue_of_the_table_passes_the_check() -> None:
    """The queue table's types and attributes, with a scenario's numbers and booleans, pass."""
    for queue in ns3.QUEUES:
        args = ns3.arguments(ns3.queue_arguments(queue, {"MinTh": 1.5, "Gentle": True}, 120))
        assert args[0] == f"--queue={ns3.QUEUES[queue].type}"
    assert ns3.arguments(ns3.queue_arguments("RED", {"MinTh": 1.5, "Gentle": True})) == [
        "--queue=ns3::RedQueueDisc",
        "--queueAttr=UseEcn=false,MinTh=1.5,Gentle=true",
    ]
    assert ns3.queue_arguments("DropTail", {"MinTh": 1.5}) == {"queue": "ns3::FifoQueueDisc"}


def test_pie_takes_the_scenarios_mean_packet_size() -> None:
    """PIE's MeanPktSize is the scenario's packet, not ns-3.37's 1000 B; CoDel takes none."""
    attrs = {"MeanPktSize": 1500, "MinTh": 1.5}
    assert ns3.queue_arguments("PIE", attrs)["queueAttr"] == (
        "QueueDelayReference=15ms,UseEcn=false,MeanPktSize=1500"
    )
    assert "MeanPktSize" not in ns3.queue_arguments("CoDel", attrs)["queueAttr"]


def test_aqm_on_ns2_fails_naming_the_backend_that_has_it() -> None:
    raw = merged(configs.merge(TINY, {"dumbbell": {"grid": {"queue": ["CoDel"]}}}))
    with pytest.raises(configuration.ConfigError) as err:
        configuration.validate(raw)
    text = str(err.value)
    assert "dumbbell.grid.queue: CoDel is not available on the ns2 backend" in text
    assert "allowed: DropTail, RED" in text and "ns3 has it" in text


def test_unknown_simulator_and_tcp_variant_fail_naming_the_key() -> None:
    raw = merged(configs.merge(TINY, {"simulators": {"dumbbell": ["ns2", "omnet"]}}))
    with pytest.raises(configuration.ConfigError, match="simulators"):
        configuration.validate(raw)
    raw = merged(configs.merge(TINY, {"dumbbell": {"ns3": {"tcp_variant": "Vegas"}}}))
    with pytest.raises(configuration.ConfigError, match="tcp_variant"):
        configuration.validate(raw)


def test_missing_library_names_the_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ns3, "library_version", lambda: "")
    raw = merged(configs.merge(TINY, {"simulators": {"dumbbell": ["ns2", "ns3"]}}))
    with pytest.raises(configuration.ConfigError) as err:
        configuration.validate(raw)
    assert "simulators.dumbbell: ns3 cannot run here" in str(err.value)
    assert "apt-get install -y libns3-dev libgsl-dev" in str(err.value)


@pytest.mark.usefixtures("built")
def test_error_model_at_head_or_tail_drops_on_the_link(tmp_path: Path) -> None:
    """Both positions' losses count as link drops; only at the tail did they use the link."""
    for where in ("head", "tail"):
        cfg = _cfg(grid={"plr": [0.05]}, ns3={"error_model_at": where})
        run_dir = _run(cfg, _point(cfg, "DropTail", 5), tmp_path / where)
        row = tables.read_run(run_dir, "ns3")
        assert row["tcp_drops_link"] > 0, where


def test_scaled_queues_scale_their_delays_to_the_link() -> None:
    """The "-scaled" AQMs: each target at least 1.5 packet times, CoDel's interval raised as
    much as its target and at least twice it (CAKE's rule); a fast link keeps the RFC values."""
    assert {q for q in ns3.QUEUES if q.endswith("-scaled")} == {
        "CoDel-scaled",
        "PIE-scaled",
        "FQ-CoDel-scaled",
    }
    # 0.1 Mb/s, 1500 B: 120 ms a packet -> target 180 ms, interval max(100 + 175, 360) ms
    codel = ns3.queue_arguments("CoDel-scaled", {}, 120.0)["queueAttr"]
    assert codel == "Target=180ms,Interval=360ms,UseEcn=false"
    # 0.5 Mb/s: 24 ms -> 36 ms, interval max(100 + 31, 72) = 131 ms
    fq = ns3.queue_arguments("FQ-CoDel-scaled", {}, 24.0)["queueAttr"]
    assert fq.startswith("Target=36ms,Interval=131ms,")
    pie = ns3.queue_arguments("PIE-scaled", {"MeanPktSize": 1500}, 24.0)["queueAttr"]
    assert pie == "QueueDelayReference=36ms,UseEcn=false,MeanPktSize=1500"
    # 50 Mb/s, 1000 B: 0.16 ms a packet, below every target: the RFC defaults stay
    fast = ns3.queue_arguments("CoDel-scaled", {}, 0.16)
    assert fast == ns3.queue_arguments("CoDel", {})
    # idempotent: delays already scaled stay as they are
    again = ns3.queue_arguments("CoDel-scaled", {"Target": "180ms", "Interval": "360ms"}, 120.0)
    assert again["queueAttr"] == codel
    with pytest.raises(ValueError, match="give packet_ms"):
        ns3.queue_arguments("CoDel-scaled", {})
