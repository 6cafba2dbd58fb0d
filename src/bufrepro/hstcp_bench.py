"""Benchmark one hstcp point: ns untraced vs traced and parsed (scripts/bench_hstcp.sh).

For one grid point (default: scenario s1 at 1 Gb/s, DropTail, 10% of the BDP, seed 1) it renders
the run's TCL at trace level "none" (no monitor, nothing written), "counters" (the pipeline's
default) and optionally "events" (every packet of the bottleneck), runs each `--reps` times,
interleaved (the machine may be shared: compare minima and medians), and reports per level:
wall and CPU time (ns + awk), the ratio to untraced, peak resident memory of the largest
process, the peak disk used in the run folder while it ran (polled every 0.1 s), and the size of
the kept compressed stream (keep_traces). Not a test: it only measures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bufrepro.paths import REPO_ROOT


def _dir_bytes(path: Path) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                st = os.lstat(os.path.join(root, name))
            except FileNotFoundError:
                continue
            if not name.endswith(".fifo"):
                total += st.st_blocks * 512
    return total


def _run(cmd: list[str], where: Path) -> dict[str, float]:
    """Run cmd under GNU time; wall, CPU (user + sys of all descendants), max RSS, peak disk."""
    timing = where / "time.txt"
    base = _dir_bytes(where)
    peak = [0]
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _dir_bytes(where) - base)
            time.sleep(0.1)

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    start = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %M", "-o", str(timing), *cmd],
        cwd=where,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    done.set()
    thread.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    user, sys_, rss = timing.read_text().split()[-3:]
    return {
        "wall_s": wall,
        "cpu_s": float(user) + float(sys_),
        "max_rss_mb": int(rss) / 1024,
        "peak_disk_mb": peak[0] / 1e6,
    }


def _render(cfg: dict[str, Any], point: Any, level: str, where: Path) -> dict[str, Any]:
    from bufrepro import render

    record = render.run_record(cfg, point)
    record["params"]["trace_level"] = level
    where.mkdir(parents=True, exist_ok=True)
    render.write_run_inputs(record, where / "sim.tcl", where / "params.json")
    return dict(record["params"])


def bench(
    cfg: dict[str, Any], point: Any, levels: Sequence[str], reps: int, work: Path
) -> dict[str, Any]:
    """Every level `reps` times, interleaved; per level the list of measurements."""
    from bufrepro.studies import hstcp

    script = str(REPO_ROOT / "scripts" / "run_hstcp.sh")
    awk = str(REPO_ROOT / "awk" / "hstcp.awk")
    out: dict[str, Any] = {level: [] for level in ("none", *levels)}
    gz_mb = None
    for rep in range(reps):
        for level in ("none", *levels):
            where = work / f"{level}{rep}"
            p = _render(cfg, point, level, where)
            if level == "none":
                m = _run(["ns", "sim.tcl"], where)
            else:
                a = hstcp.awk_args(p)
                args = [str(a[k]) for k in ("t0", "t1", "t_end", "from", "to", "bps", "pkt")]
                m = _run(
                    ["bash", script, "ns", "sim.tcl", "metrics.tsv", "run.json", awk, "0", *args],
                    where,
                )
                lines = dict(
                    line.split("\t") for line in (where / "metrics.tsv").read_text().splitlines()
                )
                m["stream_lines"] = int(lines["trace_lines"])
                m["link_utilisation"] = float(lines["link_utilisation"])
            out[level].append(m)
            print(f"[bench] rep {rep + 1}/{reps} {level}: {json.dumps(m)}", flush=True)
    # The compressed stream kept by keep_traces (one counters run).
    where = work / "keep"
    p = _render(cfg, point, "counters", where)
    a = hstcp.awk_args(p)
    args = [str(a[k]) for k in ("t0", "t1", "t_end", "from", "to", "bps", "pkt")]
    _run(["bash", script, "ns", "sim.tcl", "metrics.tsv", "run.json", awk, "1", *args], where)
    gz_mb = (where / "bottleneck.tr.gz").stat().st_size / 1e6
    out["keep_gz_mb"] = gz_mb
    return out


def report(results: dict[str, Any], sim_s: float, loadavg: tuple[float, float, float]) -> str:
    """Minimum and median per level, and the ratios to the untraced run."""
    lines = [
        f"simulated {sim_s:g} s; load average before the benchmark {loadavg[0]:.2f} "
        f"(other processes share the cores: compare minima)",
        f"{'level':9} {'wall min':>9} {'wall med':>9} {'ratio min':>9} {'ratio med':>9} "
        f"{'cpu min':>8} {'cpu ratio':>9} {'rss MB':>7} {'disk MB':>8} {'stream lines':>12}",
    ]
    base = results["none"]
    b_wall_min = min(m["wall_s"] for m in base)
    b_wall_med = statistics.median(m["wall_s"] for m in base)
    b_cpu_min = min(m["cpu_s"] for m in base)
    for level, ms in results.items():
        if not isinstance(ms, list):
            continue
        wmin = min(m["wall_s"] for m in ms)
        wmed = statistics.median(m["wall_s"] for m in ms)
        cmin = min(m["cpu_s"] for m in ms)
        lines.append(
            f"{level:9} {wmin:9.2f} {wmed:9.2f} {wmin / b_wall_min:9.3f} {wmed / b_wall_med:9.3f} "
            f"{cmin:8.2f} {cmin / b_cpu_min:9.3f} {max(m['max_rss_mb'] for m in ms):7.1f} "
            f"{max(m['peak_disk_mb'] for m in ms):8.3f} "
            f"{max(m.get('stream_lines', 0) for m in ms):12d}"
        )
    lines.append(f"kept compressed stream (keep_traces, counters): {results['keep_gz_mb']:.3f} MB")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.hstcp_bench [--scenario s1] [--queue DropTail] [--frac 0.1] ...`."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.hstcp_bench")
    parser.add_argument("--scenario", default="s1")
    parser.add_argument("--queue", default="DropTail")
    parser.add_argument("--frac", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--duration", type=float, default=None, help="simulated s (default: config)"
    )
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--events", action="store_true", help="also the per-packet events level")
    parser.add_argument("--json", default=None, help="write the raw measurements here")
    args = parser.parse_args(argv)

    from bufrepro import config, grid

    overrides: dict[str, Any] = {
        "studies": ["hstcp"],
        "hstcp": {
            "seeds": [args.seed],
            "grid": {
                "scenario": [args.scenario],
                "queue": [args.queue],
                "buffer_frac": [args.frac],
            },
        },
    }
    if args.duration is not None:
        # Keep the default profile's proportions: warm-up a third, starts within half of it.
        warmup = round(args.duration / 3, 6)
        overrides["hstcp"]["measure"] = {"duration_s": args.duration, "warmup_s": warmup}
        overrides["hstcp"]["tcp"] = {"start_jitter_s": round(warmup / 2, 6)}
    cfg = config.validate(config.merge(config.load_defaults(), overrides))
    point = grid.expand(cfg, "hstcp")[0]
    levels = ["counters", *(["events"] if args.events else [])]
    loadavg = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench_hstcp_") as tmp:
        results = bench(cfg, point, levels, args.reps, Path(tmp))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(report(results, cfg["hstcp"]["measure"]["duration_s"], loadavg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
