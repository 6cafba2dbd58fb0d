"""A local Snakemake run without the command line's submission-rate timers (real Snakemake)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import snakemake

# 40 local jobs of 0.1 s; onsuccess prints how many threads Snakemake's process still has.
WORKFLOW = """
import os, threading
from bufrepro.pipeline.scheduling import drop_local_rate_limit

onstart:
    if os.environ.get("BUFREPRO_TEST_HOOK") == "1":
        print("DROPPED", drop_local_rate_limit(workflow))

onsuccess:
    print("THREADS", threading.active_count())

rule all:
    input: expand("o{i}.txt", i=range(40))

rule touch_one:
    output: "o{i}.txt"
    localrule: True
    shell: "sleep 0.1; touch {output}"
"""


def threads_left(where: Path, hook: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    """Threads alive in Snakemake's process once all 40 jobs have finished."""
    monkeypatch.setenv("BUFREPRO_TEST_HOOK", "1" if hook else "0")
    where.mkdir()
    (where / "Snakefile").write_text(WORKFLOW, encoding="utf-8")
    proc = snakemake(where, "--cores", "2")
    assert proc.returncode == 0, proc.stderr
    assert ("DROPPED True" in proc.stdout) == hook
    return int(proc.stdout.split("THREADS ")[1].split()[0])


def test_the_hook_leaves_no_timer_per_finished_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Snakemake's own behaviour: a re-evaluation timer chain per job-triggered pass.
    assert threads_left(tmp_path / "stock", False, monkeypatch) >= 10
    assert threads_left(tmp_path / "hooked", True, monkeypatch) <= 2
