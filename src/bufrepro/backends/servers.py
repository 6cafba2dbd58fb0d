"""Simulators started once per job: a server process forks each run after its own start-up."""

from __future__ import annotations

import atexit
import os
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

# The protocol (ns2/patches/0012-serve-forked-runs.patch): the server says READY, then for each
# line "RUN <folder> <script> <stdout file> <stderr file>" (tab-separated) forks a child that
# runs the script there as `binary script` would, and answers "DONE <wait status> <user s>
# <system s>" with the child's own CPU, or "BAD <reason>".
READY = "READY"

_lock = threading.Lock()
# Per thread and server command: the server process, or None when that command cannot serve.
_servers: dict[tuple[int, tuple[str, ...]], subprocess.Popen[str] | None] = {}


def run(
    command: Sequence[str], script: str, cwd: Path, out: Path, err: Path
) -> tuple[int, float] | None:
    """Run `script` in `cwd` through this thread's server started with `command`, its output
    in the files `out` and `err`: (exit code, the run's own CPU seconds). None when no server
    can take it (the command does not serve, or a field holds a tab or a newline): the caller
    starts the simulator itself. OSError when the server dies or refuses the request."""
    fields = [str(cwd.resolve()), script, str(out.resolve()), str(err.resolve())]
    if any(("\t" in f) or ("\n" in f) for f in fields):
        return None
    server = _server(tuple(command))
    if server is None:
        return None
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write("RUN\t" + "\t".join(fields) + "\n")
        server.stdin.flush()
        reply = server.stdout.readline()
    except OSError:
        reply = ""
    parts = reply.rstrip("\n").split("\t")
    if len(parts) != 4 or parts[0] != "DONE":
        _drop(tuple(command))
        what = reply.strip() or "no answer: the server exited"
        raise OSError(f"simulator server {' '.join(command)}: {what}")
    status, user, system = int(parts[1]), float(parts[2]), float(parts[3])
    return os.waitstatus_to_exitcode(status), user + system


def _server(command: tuple[str, ...]) -> subprocess.Popen[str] | None:
    """This thread's server for `command`, started on first use (None: it cannot serve)."""
    key = (threading.get_ident(), command)
    with _lock:
        if key in _servers:
            return _servers[key]
    try:
        proc: subprocess.Popen[str] | None = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except OSError:
        proc = None
    if proc is not None:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != READY:
            _close(proc)
            proc = None
    with _lock:
        _servers[key] = proc
    return proc


def _drop(command: tuple[str, ...]) -> None:
    """Forget this thread's server of `command` (a new one starts on the next run)."""
    with _lock:
        proc = _servers.pop((threading.get_ident(), command), None)
    if proc is not None:
        _close(proc)


def _close(proc: subprocess.Popen[str]) -> None:
    """End a server: its input closed, it returns at the end of it; then reaped."""
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def close_all() -> None:
    """End every server of this process (their start-up CPU is then counted as the process's
    children's); the next run starts new ones."""
    with _lock:
        procs = [p for p in _servers.values() if p is not None]
        _servers.clear()
    for proc in procs:
        _close(proc)


atexit.register(close_all)
