"""The advisor's benchmark: `bufrepro advise` from cold in a fresh copy, wall and CPU per part."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline.bench import children_cpu, fresh_copy

# The README's link (docs/own-link.md), the benchmark's default; issue 41's goal: 12 s of wall
# from cold on 2 cores. The 100 Mbit/s, 50-flow CUBIC link's goal is 60 s (LARGE).
README = ("--rate", "10Mbit", "--rtt", "40ms", "--flows", "3", "--loss", "1%")
README_QUEUES = ("--queue", "DropTail,RED")
LARGE = ("--rate", "100Mbit", "--rtt", "20ms", "--flows", "50", "--cc", "cubic")
# The built simulators a fresh copy shares with the repository (not rebuilt, not timed).
BUILDS = (".ns2", ".ns3")


@dataclass(frozen=True)
class Cost:
    """One cold `advise`: wall and CPU seconds (every process it waited for), split by part."""

    wall: float
    cpu: float
    ns: float
    parsers: float
    runs: int
    answer_sha: str

    @property
    def rest(self) -> float:
        """Snakemake, its job processes and advise's own Python: all but ns and the parsers."""
        return self.cpu - self.ns - self.parsers


def run_costs(folder: Path) -> tuple[float, float, int]:
    """(ns CPU, parsers CPU, runs) recorded by an experiment's runs (run.json's cpu_s)."""
    ns = parsers = 0.0
    runs = 0
    for meta in folder.rglob("run.json"):
        cpu = json.loads(meta.read_text(encoding="utf-8")).get("cpu_s", {})
        ns += float(cpu.get("simulator", 0.0))
        parsers += float(cpu.get("parser", 0.0)) + float(cpu.get("side_parser", 0.0))
        runs += 1
    return ns, parsers, runs


def cold_advise(work: Path, flags: Sequence[str], cores: int) -> Cost:
    """`bufrepro advise FLAGS --name bench` in a fresh copy of the repository at `work` (its
    own results; the simulators' builds linked), timed from the command's start to its end."""
    fresh_copy(REPO_ROOT, work)
    for build in BUILDS:
        if (REPO_ROOT / build).exists() and not (work / build).exists():
            (work / build).symlink_to((REPO_ROOT / build).resolve())
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    cmd = [sys.executable, "-m", "bufrepro.cli", "advise", *flags, "--name", "bench"]
    cpu0, t0 = children_cpu(), time.monotonic()
    subprocess.run(
        [*cmd, "--cores", str(cores)], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL
    )
    wall, cpu = time.monotonic() - t0, children_cpu() - cpu0
    folder = work / "results" / "experiments" / "bench"
    ns, parsers, runs = run_costs(folder / "runs")
    answer = hashlib.sha256((folder / "answer.txt").read_bytes()).hexdigest()[:12]
    return Cost(wall, cpu, ns, parsers, runs, answer)


def report(cost: Cost, cores: int, load: tuple[float, float]) -> str:
    """The benchmark's lines: wall, the CPU by part, the answer's digest."""
    return "\n".join(
        [
            f"  wall {cost.wall:.1f} s on {cores} cores (load average {load[0]:.1f} before, "
            f"{load[1]:.1f} after)",
            f"  CPU {cost.cpu:.1f} s: ns {cost.ns:.1f}, parsers {cost.parsers:.1f}, "
            f"workflow and Python {cost.rest:.1f} ({cost.runs} runs)",
            f"  answer.txt sha256 {cost.answer_sha}",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """python -m bufrepro.pipeline.bench_advise [--large] [--cores N] [--work DIR] [-- FLAGS]"""
    p = argparse.ArgumentParser(
        prog="python -m bufrepro.pipeline.bench_advise", description=__doc__
    )
    p.add_argument("--large", action="store_true", help="the 100 Mbit/s, 50-flow CUBIC link")
    p.add_argument("--cores", type=int, default=2, help="workflow cores (default 2)")
    p.add_argument("--work", default="", help="scratch folder (default: a temporary one)")
    p.add_argument("flags", nargs="*", help="advise's link flags (default: the README's link)")
    args = p.parse_args(argv)
    flags = args.flags or [*(LARGE if args.large else README), *README_QUEUES]
    print(f"bench advise {' '.join(flags)} (cold, a fresh copy)")
    with tempfile.TemporaryDirectory(prefix="bufrepro-bench-") as tmp:
        work = Path(args.work) if args.work else Path(tmp)
        before = os.getloadavg()[0]
        cost = cold_advise(work, flags, args.cores)
        print(report(cost, args.cores, (before, os.getloadavg()[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
