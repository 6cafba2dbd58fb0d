"""A sweep's progress at a glance: runs done of the planned total, rate and ETA."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

import yaml

from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import bench, configuration, plan


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


def line(n_done: int, total: int, rate: float, started: int) -> str:
    """'[progress] 120/1980 runs (6%), 3.1 runs/s, ETA 10 min'."""
    pct = 100.0 * n_done / total if total else 100.0
    text = f"[progress] {n_done}/{total} runs ({pct:.0f}%)"
    if rate > 0 and n_done > started:
        left = (total - n_done) / rate
        eta = f"{left / 60:.0f} min" if left >= 90 else f"{left:.0f} s"
        text += f", {rate:.1f} runs/s, ETA {eta}"
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
    t0, stamp = time.monotonic(), (config.stat().st_mtime if config.is_file() else -1.0)
    runs: list[Path] = []
    pending: list[Path] = []  # runs without metrics yet: only these are looked at again
    started = n = 0
    last_print = 0.0
    while True:
        alive = _alive(pid)
        if config.is_file() and config.stat().st_mtime != stamp:
            stamp = config.stat().st_mtime
            cfg = _load(config)
            runs = planned(cfg) if cfg else []
            pending = [d for d in runs if not (d / "metrics.tsv").is_file()]
            started = len(runs) - len(pending)
            t0 = time.monotonic()
        now = time.monotonic()
        # Counted only when a line is due (every 30 s to a file or a pipe): a whole reproduction
        # plans ~8,000 runs, and looking at each of them every 2 s cost it ~100 CPU s.
        if runs and (tty or now - last_print >= 30 or not alive):
            pending = [d for d in pending if not (d / "metrics.tsv").is_file()]
            n = len(runs) - len(pending)
            rate = (n - started) / max(now - t0, 1e-9)
            text = line(n, len(runs), rate, started)
            out.write(("\r" + text + " " * 8) if tty else text + "\n")
            out.flush()
            last_print = now
        if not alive:
            break
        time.sleep(interval)
    if tty:
        out.write("\n")
    return n
