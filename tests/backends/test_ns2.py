"""The ns-2 backend with the real ns on tiny dumbbell runs: physics, determinism, failures."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends
from bufrepro.backends.base import RunFailed, RunSpec, execute
from bufrepro.kit import tables
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import plan

pytestmark = pytest.mark.usefixtures("ns_available")


def _point(cfg: dict[str, Any], queue: str, buffer: int, seed: int) -> RunPoint:
    from bufrepro import registry

    return next(
        p
        for p in registry.get("dumbbell").runs(cfg["dumbbell"])
        if p.get("queue") == queue and p.get("buffer") == buffer and p.seed == seed
    )


def run(cfg: dict[str, Any], point: RunPoint, where: Path, keep: bool = False) -> Path:
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    assert execute(backends.get("ns2", cfg), spec, keep) == "ran"
    return where


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_run_parses_and_is_physical(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    where = run(tiny_cfg, _point(tiny_cfg, "DropTail", 5, 1), tmp_path / "a")
    row = tables.read_run(where, "ns2")
    # The bottleneck cannot carry more than 0.5 Mb/s: TCP + CBR throughput below it.
    assert row["tcp_throughput_kbps"] + row["cbr_throughput_kbps"] <= 500 * 1.02
    assert 0.5 < row["link_utilisation"] <= 1.0 + 1e-6
    assert row["tcp_delay_ms_mean"] > 2 * 2 + 10  # at least the propagation delay
    assert row["acct_sent"] == row["acct_received"] + row["acct_dropped"] + row["acct_in_flight"]
    meta = json.loads((where / "run.json").read_text())
    assert meta["exit_code"] == 0 and meta["simulator_version"] == "2.35" and meta["wall_s"] >= 0
    # Debian's ns, or the patched build when the run counts in ns (trace_level tally)
    assert meta["simulator_package"].startswith(("ns2 ", "ns-2.35+bufrepro patches "))
    assert len(meta["simulator_sha256"]) == 64
    assert json.loads((where / "params.json").read_text())["seed"] == 1
    assert not (where / "out.tr").exists()


def test_each_run_records_its_own_processes_cpu_while_others_run(
    tiny_cfg: dict[str, Any], tmp_path: Path
) -> None:
    """Runs made side by side in threads (as the readings stage makes them): each run.json
    gives its simulator's and its parser's CPU, read from those children alone, so neither
    can exceed the run's own wall (a process-wide CPU count would include the other runs')."""
    from concurrent.futures import ThreadPoolExecutor

    points = [_point(tiny_cfg, q, b, 1) for q in ("DropTail", "RED") for b in (5, 15)]
    with ThreadPoolExecutor(4) as pool:
        wheres = list(
            pool.map(lambda ip: run(tiny_cfg, ip[1], tmp_path / str(ip[0])), enumerate(points))
        )
    for where in wheres:
        meta = json.loads((where / "run.json").read_text())
        cpu = meta["cpu_s"]
        assert set(cpu) == {"simulator", "parser"}
        assert 0 < cpu["simulator"] <= meta["wall_s"] + 0.002
        assert 0 <= cpu["parser"] <= meta["wall_s"] + 0.002


def test_streamed_and_kept_traces_give_the_same_metrics(
    tiny_cfg: dict[str, Any], tmp_path: Path
) -> None:
    point = _point(tiny_cfg, "RED", 15, 1)
    streamed = run(tiny_cfg, point, tmp_path / "s")
    kept = run(tiny_cfg, point, tmp_path / "k", keep=True)
    assert (kept / "out.tr").stat().st_size > 0
    assert (streamed / "metrics.tsv").read_bytes() == (kept / "metrics.tsv").read_bytes()


def test_same_seed_same_trace_other_seed_differs(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    a = run(tiny_cfg, _point(tiny_cfg, "RED", 15, 1), tmp_path / "a", keep=True)
    b = run(tiny_cfg, _point(tiny_cfg, "RED", 15, 1), tmp_path / "b", keep=True)
    c = run(tiny_cfg, _point(tiny_cfg, "RED", 15, 2), tmp_path / "c", keep=True)
    assert digest(a / "out.tr") == digest(b / "out.tr")
    assert digest(a / "out.tr") != digest(c / "out.tr")


def test_error_model_drops_at_link_head(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    row = tables.read_run(run(tiny_cfg, _point(tiny_cfg, "DropTail", 50, 1), tmp_path / "a"), "ns2")
    assert row["tcp_drops_link"] > 0  # plr 0.05 on the bottleneck


def _broken(cfg: dict[str, Any], where: Path, text: str) -> RunSpec:
    """A dumbbell run whose scenario is replaced by `text` (a backend that renders it)."""
    return dataclasses.replace(plan.spec(cfg, _point(cfg, "DropTail", 5, 1)), run_dir=where)


class _Scripted:
    """The ns-2 backend, but its scenario is a fixed text."""

    def __init__(self, cfg: dict[str, Any], text: str) -> None:
        self.inner = backends.get("ns2", cfg)
        self.text = text
        self.name = "ns2"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        return "sim.tcl", self.text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("set ns [new Simulator]\nthis_is_not_tcl\n", "simulator exit code 1"),
        # ns exits 0 but never reaches the scenario's finish proc.
        ("set f [open out.tr w]\nputs $f partial\nclose $f\nexit 0\n", "no finish marker"),
    ],
)
def test_failed_ns_run_fails_and_names_the_command(
    tiny_cfg: dict[str, Any], tmp_path: Path, text: str, reason: str
) -> None:
    spec = _broken(tiny_cfg, tmp_path / "x", text)
    with pytest.raises(RunFailed) as err:
        execute(_Scripted(tiny_cfg, text), spec)  # type: ignore[arg-type]
    msg = str(err.value)
    command = shlex.join(backends.get("ns2", tiny_cfg).simulate(spec))
    assert reason in msg and f"cd {tmp_path / 'x'} && " in msg and f" {command}" in msg
    assert not (tmp_path / "x" / "metrics.tsv").exists()
    assert not (tmp_path / "x" / "run.json").exists()


def test_patched_build_is_an_option_of_the_backend(tiny_cfg: dict[str, Any]) -> None:
    ns2 = backends.get("ns2", tiny_cfg)
    assert ns2.requires({"build": "patched"}) == ["results/ns2/ns-patched.json"]
    assert ns2.requires({}) == []
    with pytest.raises(KeyError, match="unknown simulator backend 'omnet'"):
        backends.get("omnet", tiny_cfg)
    # The stream helpers are modules of the package, not backends.
    assert backends.names() == ["ns2", "ns3"]
