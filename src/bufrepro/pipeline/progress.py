"""A sweep's progress at a glance: runs done of the planned total, rate and ETA."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import yaml

from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import bench, configuration, plan

# A finished run's recorded CPU (simulator and parsers; 0 for a twin), as verify reads it.
from bufrepro.pipeline.verify import recorded_cpu as run_cpu


def planned(cfg: Mapping[str, Any]) -> list[Path]:
    """The run folders of every run the workflow makes: each configured study's grid, its own
    rules' runs and its readings stage's distinct runs (counting the grid alone, a default
    reproduction read 100 % with 5,058 readings runs still to go), and its grid on each further
    simulator (plan.other_simulators)."""
    own = [Path(s.run_dir) for name in cfg["studies"] for s in bench.all_specs(cfg, name)]
    return own + [
        Path(plan.spec(cfg, point).run_dir)
        for name in cfg["studies"]
        for other in plan.other_simulators(cfg, name)
        for batch in plan.batches(cfg, name, other)
        for point in batch
    ]


def done(run_dirs: list[Path]) -> int:
    """How many of the runs have their metrics."""
    return sum((d / "metrics.tsv").is_file() for d in run_dirs)


# No rate or ETA before this many runs have finished since the watch began, and this long: the
# first count can find runs that finished in the instant after the config was written (a line
# once read "1052631.6 runs/s, ETA 0 s").
MIN_RUNS_FOR_RATE = 3
MIN_SECONDS_FOR_RATE = 10.0


def _scope(run_dir: Path) -> Path:
    """The part of a run's folder before its `runs` folder (one owner on one simulator)."""
    parts = run_dir.parts
    return Path(*parts[: parts.index("runs")]) if "runs" in parts else run_dir.parent


@dataclass
class Costs:
    """The measured CPU of finished runs, by cell (a run folder's parent: the same cell at other
    seeds) and by scope; a planned run is expected to cost its cell's mean, else its scope's,
    else every finished run's."""

    cells: dict[Path, list[float]] = field(default_factory=dict)
    scopes: dict[Path, list[float]] = field(default_factory=dict)
    every: list[float] = field(default_factory=list)

    def add(self, run_dir: Path, cpu: float) -> None:
        self.cells.setdefault(run_dir.parent, []).append(cpu)
        self.scopes.setdefault(_scope(run_dir), []).append(cpu)
        self.every.append(cpu)

    def expected(self, run_dir: Path) -> float | None:
        for seen in (self.cells.get(run_dir.parent), self.scopes.get(_scope(run_dir)), self.every):
            if seen:
                return sum(seen) / len(seen)
        return None

    def left(self, pending: Iterable[Path]) -> float | None:
        """The expected CPU seconds of the runs still to come (None before any run finished)."""
        total = 0.0
        for d in pending:
            cost = self.expected(d)
            if cost is None:
                return None
            total += cost
        return total


def eta_seconds(
    cpu_left: float | None, cpu_since: float, runs_since: int, seconds: float
) -> float | None:
    """Seconds left: the expected CPU still to come over the CPU the runs finished per second of
    wall since the watch began; None until MIN_RUNS_FOR_RATE runs and MIN_SECONDS_FOR_RATE."""
    if cpu_left is None or runs_since < MIN_RUNS_FOR_RATE or seconds < MIN_SECONDS_FOR_RATE:
        return None
    if cpu_since <= 0:
        return None
    return cpu_left / (cpu_since / seconds)


def line(n_done: int, total: int, rate: float, eta: float | None) -> str:
    """'[progress] 120/1980 runs (6%), 3.1 runs/s, ETA 10 min' (the rate and ETA once known;
    the ETA weighs each run still to come by its expected CPU, not by one)."""
    pct = 100.0 * n_done / total if total else 100.0
    text = f"[progress] {n_done}/{total} runs ({pct:.0f}%)"
    if eta is not None and rate > 0:
        when = f"{eta / 60:.0f} min" if eta >= 90 else f"{eta:.0f} s"
        text += f", {rate:.1f} runs/s, ETA {when}"
    return text


def _alive(pid: int) -> bool:
    """Whether the process runs (an exited child not yet reaped, a zombie, does not)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _load(path: Path) -> dict[str, Any] | None:
    """The validated config, or None while it is missing, half-written or not valid."""
    if not path.is_file():
        return None
    try:
        return configuration.validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (ConfigError, yaml.YAMLError, OSError, TypeError, KeyError):
        return None


def watch(config: Path, pid: int, interval: float = 2.0, out: TextIO = sys.stdout) -> int:
    """Print progress until process `pid` ends; returns the runs done at the end."""
    tty = out.isatty()
    # A config left by an earlier run is not this run's: wait until the workflow rewrites it.
    stamp = config.stat().st_mtime if config.is_file() else -1.0
    runs: list[Path] = []
    pending: list[Path] = []  # runs without metrics yet: only these are looked at again
    costs = Costs()
    started = n = 0
    cpu_since = 0.0
    # The rate's clock starts at the first count that finds runs finished since the config was
    # read (time, runs, CPU then): the builds before the first run (ns-2's 80 s) are no part of
    # the rate, and the runs first found finished in an unknown time neither.
    clock: tuple[float, int, float] | None = None
    last_print = 0.0
    while True:
        alive = _alive(pid)
        if config.is_file() and config.stat().st_mtime != stamp:
            stamp = config.stat().st_mtime
            cfg = _load(config)
            runs = planned(cfg) if cfg else []
            pending = [d for d in runs if not (d / "metrics.tsv").is_file()]
            costs, cpu_since = Costs(), 0.0
            for d in set(runs) - set(pending):
                costs.add(d, run_cpu(d))
            started, clock = len(runs) - len(pending), None
        now = time.monotonic()
        # Counted only when a line is due (every 30 s to a file or a pipe): a whole reproduction
        # plans ~12,000 runs, and looking at each of them every 2 s cost it ~100 CPU s.
        if runs and (tty or now - last_print >= 30 or not alive):
            still = [d for d in pending if not (d / "metrics.tsv").is_file()]
            for d in set(pending) - set(still):
                cpu = run_cpu(d)
                costs.add(d, cpu)
                cpu_since += cpu
            pending = still
            n = len(runs) - len(pending)
            if clock is None and n > started:
                clock = (now, n, cpu_since)
            t_c, n_c, cpu_c = clock if clock else (now, n, cpu_since)
            seconds = max(now - t_c, 1e-9)
            eta = eta_seconds(costs.left(pending), cpu_since - cpu_c, n - n_c, seconds)
            text = line(n, len(runs), (n - n_c) / seconds, eta)
            out.write(("\r" + text + " " * 8) if tty else text + "\n")
            out.flush()
            last_print = now
        if not alive:
            break
        time.sleep(interval)
    if tty:
        out.write("\n")
    return n
