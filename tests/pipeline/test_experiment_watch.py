"""The advisor's wait on Snakemake: it follows the process, not a fixed tick."""

from __future__ import annotations

import subprocess

from bufrepro.pipeline.experiments import watch


def test_a_running_workflow_is_not_taken_for_exited() -> None:
    proc = subprocess.Popen(["sleep", "5"])
    try:
        assert not watch._exited(proc, 0.05)
        assert proc.returncode is None
    finally:
        proc.kill()
    assert watch._exited(proc, 5.0)
    assert proc.returncode is not None


def test_an_exited_workflow_keeps_its_exit_code() -> None:
    proc = subprocess.Popen(["sh", "-c", "exit 3"])
    assert watch._exited(proc, 5.0)
    assert proc.returncode == 3
