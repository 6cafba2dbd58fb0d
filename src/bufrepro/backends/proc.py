"""A run's child processes: reaped with their own CPU time, and a stream pipe always released."""

from __future__ import annotations

import errno
import os
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def _release(fifo: Path, parser: subprocess.Popen[bytes], wait_s: float = 60.0) -> None:
    """Let the parser see the stream's end even if the simulator never opened the pipe.

    A writer opened and closed once the parser has the pipe open for reading (O_NONBLOCK fails
    with ENXIO until then) ends its stream; opened before the parser, it would leave the parser
    blocked in open() for ever. A parser that never opens the pipe is killed after wait_s.
    """
    deadline = time.monotonic() + wait_s
    while _running(parser):
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as err:
            if err.errno != errno.ENXIO:
                return
            if time.monotonic() > deadline:
                parser.kill()
                return
            time.sleep(0.005)
            continue
        os.close(fd)
        return


def _running(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the child still runs, without reaping it (_wait reads its CPU when it does)."""
    return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None


def _wait(proc: subprocess.Popen[bytes]) -> tuple[int, float]:
    """Reap the child: its exit code and its own CPU seconds (user + system), exact even
    while other threads of this process run other children."""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


def _run(cmd: Sequence[str], cwd: Path, **kw: Any) -> tuple[int, bytes, bytes, float]:
    """Run a command to its end: (exit code, stdout, stderr, its CPU seconds)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, **kw)
        rc, cpu = _wait(proc)
        out.seek(0)
        err.seek(0)
        return rc, out.read(), err.read(), cpu
