"""Kill -9 the workflow while ns runs, while a parser runs and during aggregation; the documented
resume command gives tables (and figures) byte-identical to an uninterrupted run.

Opt-in (BUFREPRO_TEST_RESUME=1; `.ci/run` sets it): four runs of a quick-like slice (the quick
profile of dumbbell and ramya, dumbbell's grid cut: every stage, ramya's side parser included),
about a minute each on 2 cores. Each run starts in a fresh copy of the repo in its own session; at
the kill point the whole session (Snakemake, its jobs, ns, gawk) gets SIGKILL at once, as a lost
machine or the OOM killer would leave it. The kill must leave Snakemake's lock and unfinished work
behind; the resume is the one docs/getting-started.md gives: `bash scripts/reproduce.sh N ARGS`
again (it removes the stale lock), or `snakemake --unlock ARGS` then
`snakemake --cores N --rerun-incomplete ARGS`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "infra"))
import repro

pytestmark = pytest.mark.skipif(
    os.environ.get("BUFREPRO_TEST_RESUME") != "1",
    reason="kill-and-resume test: set BUFREPRO_TEST_RESUME=1 (four quick-like workflow runs)",
)

STUDIES = ("dumbbell", "ramya")
# The quick profile of two studies, dumbbell's grid cut to 2 buffers x 2 seeds (32 + 16 runs).
ARGS = (
    "--configfile",
    repro.QUICK,
    "--config",
    f"studies=[{','.join(STUDIES)}]",
    "dumbbell={seeds: [1, 2], grid: {buffer: [5, 50]}}",
)
FIGURE_GLOB = "results/*/figures/*.png"


@dataclass(frozen=True)
class Proc:
    """A process of the workflow's session: pid, executable name and command line."""

    pid: int
    comm: str
    cmdline: str


def session_procs(sid: int) -> list[Proc]:
    """The live processes of session sid (the workflow and everything it started)."""
    found: list[Proc] = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            comm = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[3]) != sid or fields[0] == "Z":
                continue
            raw = Path(entry.path, "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        found.append(Proc(int(entry.name), comm, raw.replace(b"\0", b" ").decode(errors="replace")))
    return found


def ns_runs(procs: list[Proc]) -> bool:
    """Debian's ns or the patched build (the tally's and vegas's) is simulating."""
    return any(p.comm in ("ns", "ns-patched") for p in procs)


def parser_runs(procs: list[Proc]) -> bool:
    """A study parser runs on its own: gawk draining the stream or reading the side files, ns
    done (not the awk of a configure script while reproduce.sh builds ns-2)."""
    parsing = any(p.comm == "gawk" and "/awk/" in p.cmdline for p in procs)
    return parsing and not ns_runs(procs)


def aggregation_runs(procs: list[Proc]) -> bool:
    return any("bufrepro.cli aggregate" in p.cmdline for p in procs)


KILL_POINTS: dict[str, Callable[[list[Proc]], bool]] = {
    "ns": ns_runs,
    "parser": parser_runs,
    "aggregation": aggregation_runs,
}


def prepare(dest: Path) -> Path:
    """A fresh copy of the repo sharing this repo's virtualenv and ns-2 build."""
    work = repro.copy_repo(dest)
    (work / ".venv").symlink_to(repro.REPO / ".venv")
    if (repro.REPO / ".ns2").exists():
        (work / ".ns2").symlink_to(repro.REPO / ".ns2")
    return work


def env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}


def run_and_kill(
    cmd: list[str], work: Path, log: Path, when: Callable[[list[Proc]], bool]
) -> list[Proc]:
    """Start cmd in a new session; SIGKILL the whole session once `when` holds of its processes.
    Returns the processes seen at the kill (fails if the workflow ended first)."""
    with log.open("w") as fh:
        proc = subprocess.Popen(
            cmd, cwd=work, stdout=fh, stderr=subprocess.STDOUT, env=env(), start_new_session=True
        )
    seen: list[Proc] = []
    deadline = time.monotonic() + 900
    while proc.poll() is None and time.monotonic() < deadline:
        seen = session_procs(proc.pid)
        if when(seen):
            os.killpg(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.002)
    else:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        pytest.fail(f"kill point never reached (exit {proc.returncode}); log: {log}")
    proc.wait()
    for _ in range(500):  # the group dies at once; wait until the kernel has reaped it all
        if not session_procs(proc.pid):
            break
        time.sleep(0.01)
    assert not session_procs(proc.pid), "processes of the killed workflow survived"
    return seen


def figures(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.glob(FIGURE_GLOB))}


def unfinished(work: Path) -> str:
    """What the kill left undone (empty if nothing: then the kill proved nothing)."""
    missing = [s for s in STUDIES if not (work / f"results/{s}/tables/summary.csv").is_file()]
    return f"summary.csv missing for {missing}" if missing else ""


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The uninterrupted run."""
    tmp = tmp_path_factory.mktemp("reference")
    work = prepare(tmp / "repo")
    run = repro.snakemake(work, tmp / "run.log", "--cores", str(repro.cores()), *ARGS)
    assert run.returncode == 0, f"uninterrupted run failed:\n{run.tail()}"
    print(f"\nuninterrupted run: {run.seconds:.0f} s")
    return work


@pytest.mark.parametrize(
    ("point", "resume"),
    [("ns", "snakemake"), ("parser", "reproduce.sh"), ("aggregation", "snakemake")],
)
def test_killed_workflow_resumes_to_identical_tables(
    reference: Path, tmp_path: Path, point: str, resume: str
) -> None:
    work = prepare(tmp_path / "repo")
    cores = str(repro.cores())
    if resume == "reproduce.sh":
        cmd = ["bash", "scripts/reproduce.sh", cores, *ARGS]
    else:
        cmd = [sys.executable, "-m", "snakemake", "--cores", cores, *ARGS]
    t0 = time.monotonic()
    seen = run_and_kill(cmd, work, tmp_path / "killed.log", KILL_POINTS[point])
    killed_after = time.monotonic() - t0
    assert any((work / ".snakemake" / "locks").glob("*.lock")), "the kill left no lock"
    left = unfinished(work)
    assert left, "the kill came after everything was done"

    t1 = time.monotonic()
    if resume == "reproduce.sh":
        out = subprocess.run(cmd, cwd=work, capture_output=True, text=True, env=env(), check=False)
        assert out.returncode == 0, f"reproduce.sh resume failed:\n{out.stdout[-3000:]}"
        assert "removed a stale Snakemake lock" in out.stdout, out.stdout[-3000:]
    else:
        unlock = repro.snakemake(work, tmp_path / "unlock.log", "--unlock", *ARGS)
        assert unlock.returncode == 0, f"--unlock failed:\n{unlock.tail()}"
        run = repro.snakemake(
            work, tmp_path / "resume.log", "--cores", cores, "--rerun-incomplete", *ARGS
        )
        assert run.returncode == 0, f"resume failed:\n{run.tail()}"
    resumed_in = time.monotonic() - t1

    assert repro.compare_tables(reference, work) == []
    assert figures(reference), "the reference run drew no figures"
    assert figures(work) == figures(reference), "figures differ from the uninterrupted run"
    running = sorted({p.comm for p in seen})
    print(
        f"\nkill at {point} after {killed_after:.1f} s (running: {', '.join(running)}; {left}); "
        f"resumed with {resume} in {resumed_in:.0f} s: tables and figures byte-identical"
    )
