"""Benchmark one hstcp point: ns untraced vs traced and parsed, as the pipeline runs it."""

# For one grid point (default: scenario s1 at 1 Gb/s, DropTail, 10% of the BDP, seed 1) it renders
# the run's TCL at trace level "none" (no monitor, nothing written), "counters" (the pipeline's
# default) and optionally "events" (every packet of the bottleneck), runs each `--reps` times,
# interleaved (the machine may be shared: compare minima and medians), and reports per level:
# wall and CPU time (ns + awk), the ratio to untraced, peak resident memory of ns, the peak disk
# used in the run folder while it ran (polled every 0.1 s), and the size of the stream kept by
# keep_traces (uncompressed, a plain file under the pipe's name). Traced levels run exactly as
# the pipeline runs them (bufrepro.backends.base.execute: ns streaming into awk/hstcp/hstcp.awk
# through a named pipe).
# Not a test: it only measures. Usage: python -m bufrepro.studies.hstcp.bench --reps 3 --events
# Why a second benchmark beside pipeline/bench.py (`python -m bufrepro.cli bench`, every study's
# cost against its floor and the workflow's): this one needs hstcp's trace levels and watches
# memory and disk, which matter only at hstcp's link speeds; it stays inside the study package.

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bufrepro import backends
from bufrepro.backends import factory, servers
from bufrepro.backends.base import Backend, RunSpec, execute, write_inputs
from bufrepro.kit import configs
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.checks import check
from bufrepro.studies.hstcp.declarations import NS2
from bufrepro.studies.hstcp.params import KEYS, STREAM

CONFIG_DIR = REPO_ROOT / "config"
# Where GNU time writes the simulator's peak resident memory (KB), in the run folder.
MAXRSS = "ns.maxrss"


def _dir_bytes(path: Path) -> int:
    """Disk blocks of the files under path, in bytes (a named pipe holds none)."""
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                st = os.lstat(os.path.join(root, name))
            except FileNotFoundError:
                continue
            total += st.st_blocks * 512
    return total


class Timed:
    """A backend whose simulator runs under GNU time, which records ns's peak memory.

    (A child of this Python process would report Python's own peak: Linux carries the peak
    resident size of the process that execs over to the program it becomes.)
    """

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.name = inner.name
        self.parsers = inner.parsers
        self.queues = inner.queues

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        """The inner backend's scenario."""
        return self.inner.scenario(spec)

    def simulate(self, spec: RunSpec) -> list[str]:
        """The inner command under /usr/bin/time, its peak memory (KB) into MAXRSS."""
        return ["/usr/bin/time", "-f", "%M", "-o", MAXRSS, *self.inner.simulate(spec)]

    def identity(self, spec: RunSpec) -> dict[str, str]:
        """The inner backend's identity."""
        return self.inner.identity(spec)

    def finish_time(self, stdout: str) -> float | None:
        """The inner backend's finish marker."""
        return self.inner.finish_time(stdout)

    def requires(self, options: Mapping[str, str]) -> list[str]:
        """The inner backend's requirements."""
        return self.inner.requires(options)

    def scenario_files(self, scenario: str) -> list[str]:
        """The inner backend's."""
        return self.inner.scenario_files(scenario)

    def missing(self) -> str:
        """The inner backend's."""
        return self.inner.missing()

    def server(self, spec: RunSpec) -> list[str]:
        """None: a timed run is a process of its own (GNU time must be its parent)."""
        return []


def _child(job: Callable[[], dict[str, Any]], where: Path, conn: Connection) -> None:
    """Run job; send its result with the CPU time of the processes it waited for (ns, awk)."""
    start = time.perf_counter()
    out = job()
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss_kb = int((where / MAXRSS).read_text().split()[-1])
    conn.send(
        {
            **out,
            "wall_s": wall,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "max_rss_mb": rss_kb / 1024,
        }
    )
    conn.close()


def measure(job: Callable[[], dict[str, Any]], where: Path) -> dict[str, Any]:
    """Run job in a forked process (fresh usage counters); wall, CPU, ns's max RSS, peak disk."""
    base = _dir_bytes(where)
    peak = [0]
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _dir_bytes(where) - base)
            time.sleep(0.1)

    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    proc = ctx.Process(target=_child, args=(job, where, send))
    proc.start()
    send.close()
    try:
        result: dict[str, Any] = receive.recv()
    except EOFError as err:
        raise RuntimeError(f"the measured run in {where} failed (see above)") from err
    finally:
        proc.join()
        done.set()
        thread.join()
    return {**result, "peak_disk_mb": peak[0] / 1e6}


def spec_for(block: Block, point: RunPoint, level: str, where: Path) -> RunSpec:
    """The run's spec as the pipeline makes it (the one factory, the grid's declaration), at
    another trace level, in folder `where`."""
    made = factory.Bound("hstcp", "ns2", NS2, {**block, "trace_level": level})
    return dataclasses.replace(factory.spec(made, point), run_dir=where)


def untraced(backend: Backend, spec: RunSpec) -> dict[str, Any]:
    """ns alone on the scenario without its monitor (trace level none)."""
    write_inputs(spec, *backend.scenario(spec))
    with (spec.run_dir / "ns.stdout").open("wb") as out:
        subprocess.run(backend.simulate(spec), cwd=spec.run_dir, stdout=out, check=True)
    return {}


def traced(backend: Backend, spec: RunSpec, keep: bool) -> dict[str, Any]:
    """The run as the pipeline runs it; its stream's lines and its utilisation. Its server (if
    any) ends with it, so that the CPU measured around it counts ns's start-up as ns alone's."""
    execute(backend, spec, keep)
    servers.close_all()
    lines = dict(
        line.split("\t") for line in (spec.run_dir / "metrics.tsv").read_text().splitlines()
    )
    return {
        "stream_lines": int(lines["trace_lines"]),
        "link_utilisation": float(lines["link_utilisation"]),
    }


def bench(
    settings: Mapping[str, Any],
    block: Block,
    point: RunPoint,
    levels: Sequence[str],
    reps: int,
    work: Path,
) -> dict[str, Any]:
    """Every level `reps` times, interleaved; per level the list of measurements."""
    backend = Timed(backends.get("ns2", settings))
    out: dict[str, Any] = {level: [] for level in ("none", *levels)}
    for rep in range(reps):
        for level in ("none", *levels):
            spec = spec_for(block, point, level, work / f"{level}{rep}")
            spec.run_dir.mkdir(parents=True)
            backend.identity(spec)  # ns's version and sha256, once, outside the measurement
            if level == "none":
                m = measure(partial(untraced, backend, spec), spec.run_dir)
            else:
                m = measure(partial(traced, backend, spec, False), spec.run_dir)
            out[level].append(m)
            print(f"[bench] rep {rep + 1}/{reps} {level}: {json.dumps(m)}", flush=True)
    # The stream kept by keep_traces (one counters run): a plain file named like the pipe.
    spec = spec_for(block, point, "counters", work / "keep")
    spec.run_dir.mkdir(parents=True)
    traced(backend, spec, True)
    out["keep_mb"] = (spec.run_dir / STREAM).stat().st_size / 1e6
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
    lines.append(
        f"stream kept by keep_traces (counters, uncompressed): {results['keep_mb']:.3f} MB"
    )
    return "\n".join(lines)


def default_block(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """config/hstcp.yaml's block with overrides, validated against the study's schema and check."""
    raw = configs.read_yaml(CONFIG_DIR / "hstcp.yaml")["hstcp"]
    schema = backends.study_schema(CONFIG_DIR / "hstcp.schema.yaml")
    return configs.validate(configs.merge(raw, overrides), schema, check)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.studies.hstcp.bench [--scenario s1] [--queue DropTail] ...`."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.hstcp.bench")
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

    overrides: dict[str, Any] = {
        "seeds": [args.seed],
        "grid": {"scenario": [args.scenario], "queue": [args.queue], "buffer_frac": [args.frac]},
    }
    if args.duration is not None:
        # Keep the default profile's proportions: warm-up a third, starts within half of it.
        warmup = round(args.duration / 3, 6)
        overrides["measure"] = {"duration_s": args.duration, "warmup_s": warmup}
        overrides["tcp"] = {"start_jitter_s": round(warmup / 2, 6)}
    block = default_block(overrides)
    settings = configs.read_yaml(CONFIG_DIR / "config.yaml")
    values = (args.scenario, args.queue, args.frac)
    point = RunPoint("hstcp", tuple(zip(KEYS, values, strict=True)), args.seed)
    levels = ["counters", *(["events"] if args.events else [])]
    loadavg = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench_hstcp_") as tmp:
        results = bench(settings, block, point, levels, args.reps, Path(tmp))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(report(results, block["measure"]["duration_s"], loadavg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
