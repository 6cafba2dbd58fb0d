"""Real ns runs of the hstcp scenario through the generic executor: counters, seeds, failures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hstcp_tiny import point, tiny

from bufrepro import backends
from bufrepro.backends.base import RunFailed, RunSpec, execute
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.tables import read_metrics
from bufrepro.studies.hstcp import STUDY

NS2 = STUDY.declarations()["ns2"]

pytestmark = pytest.mark.usefixtures("ns_available")


def spec(cfg: dict[str, Any], p: RunPoint, where: Path, level: str | None = None) -> RunSpec:
    """The run's spec as the pipeline makes it, in `where`, optionally at another trace level."""
    block = cfg["hstcp"]
    params = NS2.params(block, p)
    if level:
        params["trace_level"] = level
    return RunSpec(
        run_dir=where,
        owner="hstcp",
        record={**p.as_dict(), "template": NS2.template, "params": params},
        scenario=NS2.template,
        parser=NS2.parser,
        parser_args=NS2.parse_args(block, p),
        stream=NS2.stream,
        kept_files=NS2.kept_files,
        options=NS2.options,
    )


def simulate(
    cfg: dict[str, Any], p: RunPoint, where: Path, level: str | None = None, keep: bool = False
) -> dict[str, float]:
    assert execute(backends.get("ns2", cfg), spec(cfg, p, where, level), keep) == "ran"
    return read_metrics(where / "metrics.tsv")


@pytest.mark.parametrize("queue", ["DropTail", "RED"])
def test_counters_agree_with_per_packet_events(tmp_path: Path, queue: str) -> None:
    cfg = tiny()
    p = point(cfg["hstcp"], queue, 0.1, 1)
    c = simulate(cfg, p, tmp_path / "c")
    e = simulate(cfg, p, tmp_path / "e", level="events")
    assert c["link_utilisation"] == e["link_utilisation"] == e["ev_link_utilisation"]
    assert e["ev_queue_avg_pkts"] == pytest.approx(e["queue_avg_pkts"], rel=1e-3, abs=1e-3)
    # the sampled maximum is a lower bound on the exact one, which the buffer bounds
    assert e["queue_avg_pkts"] <= e["ev_queue_max_pkts"] <= 13
    assert c["queue_max_pkts"] == e["queue_max_pkts"] <= e["ev_queue_max_pkts"]
    if queue == "DropTail":  # a FIFO drops only when full: ns-2's limit_ 13 holds 12 waiting
        assert e["ev_queue_max_pkts"] == 12
    assert c["drops"] == e["drops"] and c["drops"] > 0  # 13 packets of buffer do overflow
    assert e["trace_lines"] > 10 * c["trace_lines"]  # events: every packet; counters: not
    assert 0.3 < c["link_utilisation"] <= 1 + 8000 / (10e6 * 1.5)
    assert 0 < c["loss_rate"] < 1 and 0 < c["jain_index"] <= 1
    assert sum(c[f"flow{i}_tput_mbps"] for i in range(10)) == pytest.approx(
        c["link_utilisation"] * 10, rel=1e-6
    )


def test_same_seed_same_metrics_other_seed_differs(tmp_path: Path) -> None:
    cfg = tiny()
    block = cfg["hstcp"]
    a = simulate(cfg, point(block, "DropTail", 1.0, 1), tmp_path / "a")
    b = simulate(cfg, point(block, "DropTail", 1.0, 1), tmp_path / "b", keep=True)
    c = simulate(cfg, point(block, "DropTail", 1.0, 2), tmp_path / "c")
    assert a == b and a != c
    # keep_traces keeps the stream as a plain file under the pipe's name; streamed, none is left.
    assert (tmp_path / "b" / NS2.stream).is_file()
    assert (tmp_path / "b" / NS2.stream).stat().st_size > 0
    assert not (tmp_path / "a" / NS2.stream).exists()


def test_current_run_is_not_run_again(tmp_path: Path) -> None:
    cfg = tiny()
    s = spec(cfg, point(cfg["hstcp"], "RED", 0.1, 2), tmp_path / "r")
    backend = backends.get("ns2", cfg)
    assert execute(backend, s) == "ran"
    before = (tmp_path / "r" / "metrics.tsv").read_bytes()
    assert execute(backend, s) == "current"
    assert (tmp_path / "r" / "metrics.tsv").read_bytes() == before


def test_failed_ns_run_fails_without_hanging(tmp_path: Path) -> None:
    cfg = tiny()
    s = spec(cfg, point(cfg["hstcp"], "DropTail", 0.1, 1), tmp_path / "bad")

    class Broken:
        """The ns-2 backend with a scenario that is not Tcl."""

        def __init__(self) -> None:
            self.ns2 = backends.get("ns2", cfg)
            self.name = "ns2"

        def __getattr__(self, name: str) -> Any:
            return getattr(self.ns2, name)

        def scenario(self, spec: RunSpec) -> tuple[str, str]:
            return "sim.tcl", "set ns [new Simulator]\nthis_is_not_tcl\n"

    with pytest.raises(RunFailed, match="reproduce with: cd") as err:
        execute(Broken(), s)  # type: ignore[arg-type]
    assert "no finish marker" in str(err.value)
    assert "empty stream" in str(err.value)  # the parser was released and rejected the stream
    assert not (tmp_path / "bad" / "run.json").exists()
    assert not (tmp_path / "bad" / "metrics.tsv").exists()
