"""The pipe's release: a parser that opens the stream late still sees its end."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from bufrepro.backends import base


def test_a_late_reader_sees_the_end_of_a_stream_nobody_wrote(tmp_path: Path) -> None:
    # The simulator died before opening the pipe; the parser opens it only afterwards.
    fifo = tmp_path / "out.tr"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["sh", "-c", f"sleep 0.3; cat {fifo}"], stdout=subprocess.PIPE)
    base._release(fifo, reader)
    out, _ = reader.communicate(timeout=10)
    assert (reader.returncode, out) == (0, b"")


def test_a_reader_that_never_opens_the_pipe_is_killed(tmp_path: Path) -> None:
    fifo = tmp_path / "out.tr"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["sleep", "30"])
    base._release(fifo, reader, wait_s=0.2)
    assert reader.wait(timeout=10) != 0
