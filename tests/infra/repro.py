"""Helpers of the container and SLURM tests: copy the repo, run the quick profile, compare tables.

Imported by tests/test_container.py and tests/test_slurm.py (tests/infra is put on sys.path).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
INFRA = REPO / "tests" / "infra"
QUICK = "config/quick.yaml"
# Tables are results/<study>/tables/*.csv (results/tables/*.csv for a flat layout).
TABLE_GLOBS = ("results/*/tables/*.csv", "results/tables/*.csv")


def cores() -> int:
    """Cores for one run: BUFREPRO_TEST_CORES, else 2."""
    return int(os.environ.get("BUFREPRO_TEST_CORES", "2"))


def copy_repo(dest: Path) -> Path:
    """Copy the repo's files (tracked, or untracked and not ignored; no results/) into dest."""
    names = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in names:
        name = raw.decode()
        src = REPO / name
        if not name or name.startswith("results/") or not src.is_file():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    return dest


@dataclass
class Run:
    """One Snakemake run: its exit code, wall time and log file."""

    returncode: int
    seconds: float
    log: Path

    def tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])


def snakemake(workdir: Path, log: Path, *args: str, timeout: float = 1800) -> Run:
    """Run this interpreter's Snakemake in workdir; stdout and stderr go to log."""
    start = time.monotonic()
    with log.open("w") as fh:
        proc = subprocess.run(
            [sys.executable, "-m", "snakemake", *args],
            cwd=workdir,
            stdout=fh,
            stderr=subprocess.STDOUT,
            timeout=timeout,
            check=False,
        )
    return Run(proc.returncode, time.monotonic() - start, log)


def ns2_config() -> tuple[str, str]:
    """--config that points a copy of the repo at this repo's patched ns-2 build (.ns2/), so the
    copy reuses it instead of building its own (ns2/build.sh builds it there if it is missing)."""
    return ("--config", f"backends={{ns2: {{prefix: {REPO / '.ns2'}}}}}")


def run_quick_locally(tmp: Path) -> tuple[Path, Run]:
    """The quick profile on this machine, in a fresh copy of the repo under tmp/local."""
    work = copy_repo(tmp / "local")
    run = snakemake(
        work, tmp / "local.log", "--cores", str(cores()), "--configfile", QUICK, *ns2_config()
    )
    return work, run


def tables(root: Path) -> dict[str, bytes]:
    """The result tables under root (a folder holding results/), by path relative to root."""
    found: dict[str, bytes] = {}
    for pattern in TABLE_GLOBS:
        for path in sorted(root.glob(pattern)):
            found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def compare_tables(expected_root: Path, actual_root: Path) -> list[str]:
    """Differences between two runs' tables (empty if every table is byte-for-byte equal)."""
    expected, actual = tables(expected_root), tables(actual_root)
    problems: list[str] = []
    if not expected:
        problems.append(f"no tables under {expected_root}/results")
    for name in sorted(expected.keys() - actual.keys()):
        problems.append(f"{name}: missing from {actual_root}")
    for name in sorted(actual.keys() - expected.keys()):
        problems.append(f"{name}: only in {actual_root}")
    for name in sorted(expected.keys() & actual.keys()):
        a, b = expected[name], actual[name]
        if a != b:
            la = a.decode(errors="replace").splitlines()
            lb = b.decode(errors="replace").splitlines()
            first = next(
                (i for i, (x, y) in enumerate(zip(la, lb, strict=False)) if x != y),
                min(len(la), len(lb)),
            )
            problems.append(
                f"{name}: differs ({len(a)} vs {len(b)} bytes) at line {first + 1}:\n"
                f"  expected: {la[first] if first < len(la) else '<end>'}\n"
                f"  actual:   {lb[first] if first < len(lb) else '<end>'}"
            )
    return problems


def metrics(stdout: str) -> dict[str, str]:
    """The 'METRIC name=value' lines of a tests/infra script's output."""
    found: dict[str, str] = {}
    for line in stdout.splitlines():
        if line.startswith("METRIC ") and "=" in line:
            key, _, value = line[len("METRIC ") :].partition("=")
            found[key.strip()] = value.strip()
    return found


def verify_sample(work: Path, fraction: str = "0.05", seed: str = "1") -> dict[str, Any]:
    """`bufrepro verify` on a seeded sample of the quick tree in work/results (re-simulated with
    the recorded builds, compared byte for byte): its record; a run that differs fails here."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bufrepro.cli",
            "verify",
            "results",
            "--sample",
            fraction,
            "--seed",
            seed,
            "--json",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert proc.returncode == 0, (
        f"verify exited {proc.returncode}:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    )
    record: dict[str, Any] = json.loads(proc.stdout)
    return record
