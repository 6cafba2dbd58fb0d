"""An experiment's workflow as `bufrepro advise` runs it: its progress line and what it cost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.kit.templates import text_environment
from bufrepro.pipeline.experiments import plan, search


def progress_line(exp: plan.Resolved, start: float) -> str:
    """The one progress line: runs done of those planned, and an ETA."""
    coarse = plan.stage_points(exp, "coarse")
    refine_known = exp.refine_file.is_file()
    refine = plan.stage_points(exp, "refine") if refine_known else []
    # The refine stage, before it is known: its refining buffers on every seed.
    per_buffer = len(exp.kind.series(exp.setup)) * len(exp.block["seeds"])
    guess = 0 if refine_known else per_buffer * int(exp.block["buffers"]["refine"])
    points = [*coarse, *refine]
    done = sum((Path(p.run_dir) / "metrics.tsv").is_file() for p in points)
    total = len(points) + guess
    now = time.monotonic() - start
    fresh = sum(
        1
        for p in points
        if (Path(p.run_dir) / "run.json").is_file()
        and (Path(p.run_dir) / "run.json").stat().st_mtime >= made_since(start)
    )
    eta = f"ETA {now / fresh * (total - done):.0f} s" if fresh and done < total else "ETA -"
    stage = "refining" if refine_known else "coarse pass"
    return (
        f"[advise] {done}/{total}{'' if refine_known else '~'} runs ({stage}), {now:.0f} s, {eta}"
    )


_WALL0 = time.time() - time.monotonic()


def made_since(start_monotonic: float) -> float:
    """The wall-clock time of a monotonic instant (to compare with file times)."""
    return _WALL0 + start_monotonic


def _exited(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Whether the process exits within `timeout` seconds (returning as soon as it does)."""
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return True


def run_workflow(
    exp: plan.Resolved, path: Path, cores: int, out: TextIO
) -> tuple[int, float, Path]:
    """Snakemake on the experiment's config, its output in the experiment's log; the progress
    line on `out` (redrawn while it runs when `out` is a terminal). (exit code, wall s, log)."""
    log = exp.folder / "logs" / "snakemake.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--configfile", str(path)]
    start = time.monotonic()
    tty = out.isatty()
    with log.open("w") as fh:
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, stdout=fh, stderr=subprocess.STDOUT)
        # Wait on the process itself, not a sleep: the answer follows the moment it exits.
        while not _exited(proc, 0.5):
            if tty:
                print("\r" + progress_line(exp, start).ljust(70), end="", flush=True, file=out)
    line = progress_line(exp, start)
    print(("\r" if tty else "") + line.ljust(70), file=out)
    return proc.returncode, time.monotonic() - start, log


@dataclass(frozen=True)
class Cost:
    """What one advise call cost: runs made and reused, the wall, the simulator's and parsers'
    CPU (of the runs made now)."""

    runs_made: int
    runs_reused: int
    wall_s: float
    cores: int
    load: float
    ns_cpu_s: float
    parser_cpu_s: float

    @property
    def ns_share(self) -> float:
        """The simulator's CPU as a share of cores x wall."""
        return self.ns_cpu_s / (self.wall_s * self.cores) if self.wall_s > 0 else 0.0


def cost(exp: plan.Resolved, since: float, wall: float, cores: int) -> Cost:
    """Runs made since `since` (their run.json is newer), runs reused, and their CPU."""
    made, reused, sim, parse = 0, 0, 0.0, 0.0
    for stage in search.STAGES:
        for p in plan.stage_points(exp, stage):
            meta = Path(p.run_dir) / "run.json"
            reused += meta.is_file() and meta.stat().st_mtime < since
            if meta.is_file() and meta.stat().st_mtime >= since:
                cpu = json.loads(meta.read_text(encoding="utf-8")).get("cpu_s", {})
                made += 1
                sim += float(cpu.get("simulator", 0.0))
                parse += float(cpu.get("parser", 0.0))
    return Cost(made, reused, wall, cores, os.getloadavg()[0], sim, parse)


def cost_data(made: Cost) -> dict[str, Any]:
    """The cost as JSON-ready data, with the simulator's share of cores x wall."""
    return {**asdict(made), "ns_share": made.ns_share}


def cost_text(made: Cost, page: str, table: str) -> str:
    """The Cost and Page lines under the answer (cost.txt.j2 beside this module)."""
    template = text_environment(Path(__file__).parent).get_template("cost.txt.j2")
    return template.render(cost=made, page=page, table=table)
