"""The scripts and the documented follow-up commands: the stale-lock check, setup's ready line, and
follow-ups that plan exactly the last run whatever its profile."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import REPO, copy_repo, snakemake

SNAKELOCK = REPO / "scripts" / "snakelock.py"
MEMORY = "results/config.validated.yaml"


def snakelock(checkout: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SNAKELOCK), *args, str(checkout)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def locked(tmp_path: Path) -> Path:
    """A checkout with the lock files a killed Snakemake leaves."""
    locks = tmp_path / ".snakemake" / "locks"
    locks.mkdir(parents=True)
    for name in ("0.input.lock", "0.output.lock"):
        (locks / name).write_text("results/x\n")
    return tmp_path


@pytest.fixture
def running_snakemake(locked: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A process named snakemake (sleep under that name) running in the locked checkout."""
    exe = locked / "bin" / "snakemake"
    exe.parent.mkdir()
    exe.symlink_to("/bin/sleep")
    proc = subprocess.Popen([str(exe), "60"], cwd=locked)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_no_lock_is_fine(tmp_path: Path) -> None:
    out = snakelock(tmp_path, "--unlock")
    assert (out.returncode, out.stdout) == (0, "")


def test_stale_lock_is_reported_with_the_command(locked: Path) -> None:
    out = snakelock(locked)
    assert out.returncode == 3
    assert "snakemake --unlock" in out.stdout
    assert len(list((locked / ".snakemake" / "locks").iterdir())) == 2


def test_stale_lock_is_removed(locked: Path) -> None:
    out = snakelock(locked, "--unlock")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "removed a stale Snakemake lock" in out.stdout
    assert list((locked / ".snakemake" / "locks").iterdir()) == []


def test_lock_of_a_running_snakemake_is_kept(
    locked: Path, running_snakemake: subprocess.Popen[bytes]
) -> None:
    out = snakelock(locked, "--unlock")
    assert out.returncode == 1
    assert f"pid {running_snakemake.pid}" in out.stdout
    assert len(list((locked / ".snakemake" / "locks").iterdir())) == 2


def test_a_snakemake_elsewhere_does_not_hold_the_lock(
    locked: Path,
    running_snakemake: subprocess.Popen[bytes],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    other = tmp_path_factory.mktemp("other")
    (other / ".snakemake" / "locks").mkdir(parents=True)
    (other / ".snakemake" / "locks" / "0.input.lock").write_text("x\n")
    assert snakelock(other, "--unlock").returncode == 0


@pytest.mark.usefixtures("ns_available")
def test_setup_reports_the_ns_version() -> None:
    out = subprocess.run(
        ["bash", "scripts/setup.sh"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stdout + out.stderr
    ready = [line for line in out.stdout.splitlines() if line.startswith("[setup] ready:")]
    assert ready and re.match(r"\[setup\] ready: ns 2\.35\b", ready[0]), out.stdout


def readme_commands(heading: str) -> list[list[str]]:
    """The commands in the sh blocks of a section of docs/getting-started.md."""
    text = (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n#", 1)[0]
    blocks = [b.split("```", 1)[0] for b in section.split("```sh\n")[1:]]
    lines = [line.split("#", 1)[0] for b in blocks for line in b.splitlines()]
    return [shlex.split(line) for line in lines if line.strip()]


def readme_followups() -> list[list[str]]:
    """The commands of the docs' "Follow-up commands" section."""
    return readme_commands("Follow-up commands")


def test_readme_resume_commands_are_the_tested_ones() -> None:
    """tests/test_resume.py resumes with these (opt-in there: it kills real runs)."""
    commands = readme_commands("Resume after a kill")
    assert any(cmd[:2] == ["bash", "scripts/reproduce.sh"] for cmd in commands), commands
    assert any(cmd[:2] == ["snakemake", "--unlock"] for cmd in commands), commands
    assert any(cmd[0] == "snakemake" and "--rerun-incomplete" in cmd for cmd in commands), commands


def job_counts(stdout: str) -> dict[str, int]:
    """The 'Job stats' table of a Snakemake dry run as {rule: count}."""
    table = stdout.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    pairs = (line.split() for line in table.splitlines()[3:])
    return {p[0]: int(p[1]) for p in pairs if len(p) == 2 and p[0] != "total"}


def test_readme_followups_repeat_the_last_runs_config() -> None:
    commands = readme_followups()
    assert len(commands) >= 2
    for cmd in commands:
        assert cmd[0] == "snakemake" and cmd[-2:] == ["--configfile", MEMORY], cmd


@pytest.mark.parametrize(
    "run_args",
    [
        ("--configfile", "config/quick.yaml"),
        ("--configfile", "config/quick.yaml", "--config", "dumbbell={seeds: [1, 2]}"),
    ],
    ids=["quick", "quick+config"],
)
def test_readme_show_diff_plans_the_last_run(tmp_path: Path, run_args: tuple[str, ...]) -> None:
    """After a run, the documented show_diff plans the jobs that run's own arguments plan (a dry run
    of the remembered config against one of the original arguments)."""
    work = copy_repo(tmp_path / "repo")
    wrote = snakemake(work, "--cores", "1", MEMORY, *run_args)
    assert wrote.returncode == 0, wrote.stderr[-3000:]
    show = next(cmd for cmd in readme_followups() if "show_diff" in cmd)
    remembered = snakemake(work, "-n", *show[1:])
    original = snakemake(work, "-n", "--cores", "1", "show_diff", *run_args)
    for proc in (remembered, original):
        assert proc.returncode == 0, proc.stderr[-3000:]
    assert job_counts(remembered.stdout) == job_counts(original.stdout)


def test_scripts_are_valid_bash() -> None:
    for script in sorted((REPO / "scripts").glob("*.sh")):
        out = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert out.returncode == 0, f"{script.name}: {out.stderr}"
