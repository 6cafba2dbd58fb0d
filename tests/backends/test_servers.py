"""The patched ns-2's run server (ns2/patches/0012): each run forked from one started ns is the
run `ns script` would be, to the byte, and starts from an interpreter no other run touched."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends
from bufrepro.backends import servers
from bufrepro.backends.base import execute
from bufrepro.backends.simulators import ns2
from bufrepro.pipeline import plan

# What a script sees of its start (argv, interactive, script name), a seeded draw, a file, both
# output streams, and a global that the next run must not see.
SCRIPT = """puts "argv0=$argv0 argc=$argc argv=<$argv> interactive=$tcl_interactive"
puts "script=[info script]"
puts "leaked=[info exists ::left_by_last_run]"
set ::left_by_last_run 1
$defaultRNG seed 7
puts "draw=[$defaultRNG uniform 0 1] [ns-random]"
set f [open made.txt w]
puts $f "written [ns-version]"
close $f
puts stderr "to stderr"
"""


@pytest.fixture
def server(patched_ns: Path) -> Any:
    command = [str(patched_ns), str(ns2.SERVER_SCRIPT)]
    yield command
    servers.close_all()


def direct(ns: Path, where: Path, script: str) -> tuple[int, bytes, bytes]:
    done = subprocess.run([str(ns), script], cwd=where, capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr


def served(command: list[str], where: Path, script: str) -> tuple[int, bytes, bytes, float]:
    got = servers.run(command, script, where, where / "out", where / "err")
    assert got is not None
    return got[0], (where / "out").read_bytes(), (where / "err").read_bytes(), got[1]


@pytest.mark.parametrize(
    "tail", ["exit 0\n", "", "error boom\n", "exit 3\n"], ids=["exit", "returns", "error", "rc3"]
)
def test_a_served_run_is_the_run_ns_would_make(
    tmp_path: Path, patched_ns: Path, server: list[str], tail: str
) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "s.tcl").write_text(SCRIPT + tail)
    rc, out, err = direct(patched_ns, tmp_path / "a", "s.tcl")
    src, sout, serr, cpu = served(server, tmp_path / "b", "s.tcl")
    assert (src, sout, serr) == (rc, out, err)
    assert rc == {"exit 0\n": 0, "": 0, "error boom\n": 1, "exit 3\n": 3}[tail]
    assert (tmp_path / "a/made.txt").read_bytes() == (tmp_path / "b/made.txt").read_bytes()
    assert b"leaked=0" in sout and cpu > 0


def test_each_run_starts_from_the_untouched_interpreter(tmp_path: Path, server: list[str]) -> None:
    (tmp_path / "s.tcl").write_text(SCRIPT + "exit 0\n")
    outs = [served(server, tmp_path, "s.tcl")[1] for _ in range(3)]
    assert outs[0] == outs[1] == outs[2] and b"leaked=0" in outs[2]


def test_a_binary_that_cannot_serve_is_run_as_before(tmp_path: Path) -> None:
    stock = shutil.which("ns")
    if stock is None:
        pytest.fail("Debian's ns is not installed; run scripts/setup.sh")
    command = [stock, str(ns2.SERVER_SCRIPT)]
    try:
        assert servers.run(command, "s.tcl", tmp_path, tmp_path / "o", tmp_path / "e") is None
        assert servers.run(["/nonexistent/ns", "x"], "s.tcl", tmp_path, tmp_path, tmp_path) is None
    finally:
        servers.close_all()


def test_a_folder_name_with_a_tab_is_not_sent(tmp_path: Path, server: list[str]) -> None:
    odd = tmp_path / "a\tb"
    odd.mkdir()
    assert servers.run(server, "s.tcl", odd, odd / "o", odd / "e") is None


def test_a_dead_server_fails_the_run_and_the_next_run_starts_a_new_one(
    tmp_path: Path, server: list[str]
) -> None:
    (tmp_path / "s.tcl").write_text("puts hello\nexit 0\n")
    assert served(server, tmp_path, "s.tcl")[1] == b"hello\n"
    (proc,) = [p for p in servers._servers.values() if p is not None]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with pytest.raises(OSError, match=r"simulator server .*the server exited"):
        servers.run(server, "s.tcl", tmp_path, tmp_path / "out", tmp_path / "err")
    assert served(server, tmp_path, "s.tcl")[1] == b"hello\n"


@pytest.mark.usefixtures("patched_ns")
def test_a_pipeline_run_is_the_same_served_or_not(tmp_path: Path, tiny_cfg: dict[str, Any]) -> None:
    point = plan.batches(tiny_cfg, "hstcp")[0][0]
    made = {}
    for serve in (True, False):
        settings = {**tiny_cfg["backends"]["ns2"], "serve": serve}
        cfg = {**tiny_cfg, "backends": {**tiny_cfg["backends"], "ns2": settings}}
        backend = backends.get("ns2", cfg)
        spec = plan.spec(cfg, point, tmp_path / str(serve))
        assert backend.server(spec) == ([backend.patched, str(ns2.SERVER_SCRIPT)] if serve else [])  # type: ignore[attr-defined]
        assert execute(backend, spec) == "ran"
        made[serve] = [(spec.run_dir / f).read_bytes() for f in ("metrics.tsv", "ns.stdout")]
    servers.close_all()
    assert made[True] == made[False]
