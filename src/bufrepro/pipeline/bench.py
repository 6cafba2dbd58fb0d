"""Benchmarks: a run's cost against ns alone (untraced), and the workflow's against its runs'."""

from __future__ import annotations

import dataclasses
import json
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bufrepro import backends, registry
from bufrepro.backends import servers
from bufrepro.backends.base import RunSpec, execute, reuse_key, write_inputs
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import batch, plan

# The benchmark of every study (`python -m bufrepro.cli bench`): sampled runs against their
# untraced floor, and the workflow against its runs. It has one sibling on purpose,
# studies/hstcp/bench.py: that one measures a single hstcp point at each trace level (none,
# counters, events) with ns's peak memory and the run folder's peak disk, which only hstcp's
# 1-2.5 Gb/s runs make worth watching and only its template can switch; it shares nothing here.


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def untraced(spec: RunSpec, overrides: Mapping[str, Any]) -> RunSpec:
    """The same run with the study's tracing switched off (its `untraced` template variables)."""
    record = {**spec.record, "params": {**spec.params, **overrides}}
    return dataclasses.replace(spec, record=record)


def floor_run(backend: Any, spec: RunSpec) -> tuple[float, float]:
    """(wall, CPU) seconds of the simulator alone on the untraced scenario."""
    name, text = backend.scenario(spec)
    write_inputs(spec, name, text)
    cpu0, t0 = children_cpu(), time.monotonic()
    subprocess.run(
        backend.simulate(spec),
        cwd=spec.run_dir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return time.monotonic() - t0, children_cpu() - cpu0


def pipeline_run(backend: Any, spec: RunSpec) -> tuple[float, float]:
    """(wall, CPU) seconds of the pipeline's run: render, simulate, stream, parse, check, keep.
    A run server ends with its run: its start-up is counted, as ns alone's is."""
    cpu0, own0, t0 = children_cpu(), time.process_time(), time.monotonic()
    execute(backend, spec)
    servers.close_all()
    cpu = children_cpu() - cpu0 + time.process_time() - own0
    return time.monotonic() - t0, cpu


def sample(points: Sequence[RunPoint], k: int) -> list[RunPoint]:
    """k runs spread evenly over the grid (all of them when k >= the grid)."""
    if k >= len(points):
        return list(points)
    step = len(points) / k
    return [points[int(i * step)] for i in range(k)]


def run_costs(cfg: Mapping[str, Any], name: str, k: int, work: Path) -> dict[str, float]:
    """Untraced ns against the pipeline's run, interleaved run by run over a sample of k runs."""
    study = registry.get(name)
    backend = backends.get(study.own_simulator(), cfg)
    totals = dict.fromkeys(("floor_wall", "floor_cpu", "run_wall", "run_cpu"), 0.0)
    points = sample(study.runs(cfg[name]), k)
    off = plan.bound(cfg, name).declaration.untraced
    for i, point in enumerate(points):
        spec = plan.spec(cfg, point)
        fw, fc = floor_run(
            backend,
            dataclasses.replace(untraced(spec, off), run_dir=work / name / f"floor{i}"),
        )
        rw, rc = pipeline_run(backend, dataclasses.replace(spec, run_dir=work / name / f"run{i}"))
        for key, value in zip(totals, (fw, fc, rw, rc), strict=True):
            totals[key] += value
    totals["runs"] = len(points)
    return totals


def reading_specs(cfg: Mapping[str, Any], name: str) -> list[RunSpec]:
    """Every distinct run of the study's readings stage (Morris, calibration and confirmation), as
    the stages plan them: none when the study declares no evaluated space or its cells are
    off-grid. Which readings are confirmed is known once calibration has run: the design's first
    ones stand in for them (as many runs, other folders), so the plan does not depend on what
    results/ holds."""
    from bufrepro.pipeline.readings import calibration, confirmation, sensitivity
    from bufrepro.pipeline.readings import runs as rruns
    from bufrepro.pipeline.readings import space as rspace

    if name not in rspace.studies_with_space([name]):
        return []
    space = rspace.load(cfg, name, rspace.files(name, str(cfg.get("profile") or "")))
    if not space["evaluate"] or rspace.off_grid(cfg, space):
        return []
    readings = sensitivity.make_readings(cfg, space, sensitivity.design(space))
    readings += calibration.make_readings(cfg, space)
    readings += confirmation.chosen(cfg, space, confirmation.stand_ins(space))
    unique = {str(s.run_dir): s for r in readings for s in rruns.specs(cfg, r)}
    return list(unique.values())


def all_specs(cfg: Mapping[str, Any], name: str, readings: bool = True) -> list[RunSpec]:
    """The study's grid runs, its side runs, then (unless readings is False) its readings'
    distinct runs: every run the workflow makes."""
    study = registry.get(name)
    grid = [plan.spec(cfg, point) for point in study.runs(cfg[name])]
    side = [c for c in batch.scopes(cfg) if c.owner == name and c.role == "side"]
    sides = [spec for c in side for spec in batch.scope_specs(cfg, c)]
    return grid + sides + (reading_specs(cfg, name) if readings else [])


def simulated(backend: Any, specs: Sequence[RunSpec]) -> list[RunSpec]:
    """The runs the workflow simulates: of twins (one reuse key: the same scenario, parsers and
    binary under other names), one, the twin whose run.json says it was simulated if any."""
    groups: dict[str, list[RunSpec]] = {}
    for spec in specs:
        text = backend.scenario(spec)[1]
        rkey = reuse_key(spec, text, backend.identity(spec), backend.parsers)
        groups.setdefault(rkey, []).append(spec)
    return [next((s for s in twins if not _reused(s)), twins[0]) for twins in groups.values()]


def _reused(spec: RunSpec) -> bool:
    record = spec.run_dir / "run.json"
    return record.is_file() and "reused_from" in json.loads(record.read_text(encoding="utf-8"))


@dataclasses.dataclass(frozen=True)
class Floor:
    """Summed wall seconds of untraced ns over the workflow's runs: measured, or estimated from
    every k-th run of each study (then `half` is the 95 % half-width, else 0); `cpu` is the
    CPU seconds (user + system) of the same runs, the measured total scaled like the walls;
    `method` says how it was estimated: "mean" (N x the sample mean) or "ratio" (to the runs'
    recorded walls, ratio_estimate)."""

    seconds: float
    runs: int
    measured: int
    half: float = 0.0
    cpu: float = 0.0
    method: str = "mean"
    # Per study: the floor's seconds, and the CPU the reproduction's runs' own processes
    # (simulator and parsers) used as their run.json files record it, when all of them do.
    studies: Mapping[str, float] = dataclasses.field(default_factory=dict)
    runs_cpu: Mapping[str, float] = dataclasses.field(default_factory=dict)


def estimate(walls: Mapping[str, Sequence[float]], totals: Mapping[str, int]) -> Floor:
    """Per study, N x the sample mean; the half-width from the sample variance, with the finite
    population correction (a systematic sample taken as a simple random one): the ratio
    estimator with every run's recorded wall taken as 1."""
    ones = {name: [1.0] * len(sample) for name, sample in walls.items()}
    floor = ratio_estimate(walls, ones, {name: float(totals[name]) for name in walls}, totals)
    return dataclasses.replace(floor, method="mean")


def ratio_estimate(
    walls: Mapping[str, Sequence[float]],
    recorded: Mapping[str, Sequence[float]],
    totals: Mapping[str, float],
    runs: Mapping[str, int],
) -> Floor:
    """Per study, the ratio estimator: (sum of the sampled floors / sum of the same runs' recorded
    walls) x the recorded walls of all its runs; the half-width from the residuals' variance
    y - R x, with the finite population correction. The recorded walls (run.json, as the
    reproduction timed its runs) follow the floor closely, so the interval is much narrower
    than N x the sample mean's for the same sample."""
    seconds = var = 0.0
    studies = {}
    for name, sample in walls.items():
        xs, n, big = recorded[name], len(sample), runs[name]
        ratio = sum(sample) / sum(xs)
        seconds += ratio * totals[name]
        studies[name] = ratio * totals[name]
        if 1 < n < big:
            s2 = sum((y - ratio * x) ** 2 for y, x in zip(sample, xs, strict=True)) / (n - 1)
            var += big * big * s2 / n * (1 - n / big)
    measured = sum(len(s) for s in walls.values())
    half = 1.96 * var**0.5 if measured < sum(runs.values()) else 0.0
    return Floor(seconds, sum(runs.values()), measured, half, method="ratio", studies=studies)


def recorded(specs: Sequence[RunSpec]) -> list[dict[str, Any]] | None:
    """Each run's run.json as the reproduction in this folder wrote it, or None when any run
    has none (then the floor is estimated without them)."""
    records = []
    for spec in specs:
        record = spec.run_dir / "run.json"
        if not record.is_file():
            return None
        records.append(json.loads(record.read_text()))
    return records


def recorded_cpu(records: Sequence[Mapping[str, Any]]) -> float | None:
    """The CPU seconds the runs' own processes used (run.json's cpu_s, simulator and parsers),
    or None when any run has no record of it."""
    if any("cpu_s" not in r for r in records):
        return None
    return sum(sum(r["cpu_s"].values()) for r in records)


def floor_all(
    cfg: Mapping[str, Any],
    names: Sequence[str],
    cores: int,
    work: Path,
    readings: bool = True,
    every: int = 1,
) -> Floor:
    """Every run the workflow simulates (grid and, unless readings is False, readings; of twins,
    one) untraced, run `cores` at a time; with every > 1 only every k-th run of each study (from
    the middle of the first k, spread over its grid and readings), and the sum estimated: by the
    ratio to the runs' recorded walls when every run of every study has its run.json here (a
    reproduction timed in this folder), else by N x the sample mean."""
    jobs, totals, walls_of, runs_cpu = [], {}, {}, {}
    for name in names:
        study = registry.get(name)
        backend = backends.get(study.own_simulator(), cfg)
        off = plan.bound(cfg, name).declaration.untraced
        specs = simulated(backend, all_specs(cfg, name, readings))
        totals[name] = len(specs)
        if (records := recorded(specs)) is not None:
            walls_of[name] = [float(r["wall_s"]) for r in records]
            if (cpu_used := recorded_cpu(records)) is not None:
                runs_cpu[name] = cpu_used
        for i in range(min(every // 2, max(len(specs) - 1, 0)), len(specs), every):
            spec = untraced(specs[i], off)
            jobs.append(
                (name, i, backend, dataclasses.replace(spec, run_dir=work / name / f"f{i}"))
            )
    cpu0 = children_cpu()
    with ThreadPoolExecutor(max_workers=cores) as pool:
        costs = list(pool.map(lambda job: floor_run(job[2], job[3])[0], jobs))
    cpu = children_cpu() - cpu0  # the pool's threads overlap: only the total is exact
    walls: dict[str, list[float]] = {name: [] for name, n in totals.items() if n}
    xs: dict[str, list[float]] = {name: [] for name in walls}
    for (name, i, _, _), wall in zip(jobs, costs, strict=True):
        walls[name].append(wall)
        xs[name].append(walls_of[name][i] if name in walls_of else 1.0)
    if every > 1 and walls and all(name in walls_of for name in walls):
        sums = {name: sum(walls_of[name]) for name in walls}
        floor = ratio_estimate(walls, xs, sums, totals)
    else:
        floor = estimate(walls, totals)
    sampled = sum(map(sum, walls.values()))
    scaled = cpu * floor.seconds / sampled if sampled else 0.0
    return dataclasses.replace(floor, cpu=scaled, runs_cpu=runs_cpu)


def floor_text(floor: Floor, cores: int) -> str:
    """The floor as the reports print it: measured, or estimated with its 95 % half-width."""
    per_core = f"(/ {cores} cores = {floor.seconds / cores:.1f} s; CPU {floor.cpu:.1f} s)"
    if floor.measured == floor.runs:
        return f"sum of untraced ns {floor.seconds:.1f} s {per_core}"
    how = " (ratio to the runs' recorded walls)" if floor.method == "ratio" else ""
    return (
        f"sum of untraced ns estimated from {floor.measured} of them{how} {floor.seconds:.1f} s "
        f"+- {floor.half:.1f} s (95 %) {per_core}"
    )


def runs_cpu_text(floor: Floor) -> list[str]:
    """Per study with a record of it: the CPU its runs' own processes used against its floor."""
    return [
        f"{name}: floor {floor.studies[name]:.1f} s; its runs' simulator and parsers used "
        f"{cpu:.1f} CPU s as their run.json files record it ({cpu / floor.studies[name]:.2f}x)"
        for name, cpu in floor.runs_cpu.items()
        if floor.studies.get(name)
    ]


def fresh_copy(repo: Path, work: Path) -> None:
    """The repository's files (tracked, or untracked and not ignored; no results) copied to
    `work`."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for rel in files:
        if (repo / rel).is_file() and not rel.startswith("results/"):
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo / rel, work / rel)


def workflow_wall(
    repo: Path, work: Path, cores: int, args: Sequence[str], targets: Sequence[str] = ("all",)
) -> tuple[float, float]:
    """(wall, CPU) seconds of `snakemake --cores N TARGETS ARGS` in a fresh copy of the
    repository; the CPU is Snakemake's and every process it waited for (its jobs, their runs)."""
    fresh_copy(repo, work)
    cpu0, t0 = children_cpu(), time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", str(cores), *targets, *args],
        cwd=work,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.monotonic() - t0, children_cpu() - cpu0


def report_runs(cfg: Mapping[str, Any], names: Sequence[str], k: int, work: Path) -> str:
    """Per study: the pipeline's run against ns alone, CPU and wall, over k sampled runs."""
    lines = [
        "study     runs  ns alone CPU s  pipeline CPU s  ratio CPU  ns alone wall s  "
        "pipeline wall s  ratio wall"
    ]
    for name in names:
        t = run_costs(cfg, name, k, work)
        lines.append(
            f"{name:9} {int(t['runs']):4d}  {t['floor_cpu']:14.2f}  {t['run_cpu']:14.2f}  "
            f"{t['run_cpu'] / t['floor_cpu']:8.2f}x  {t['floor_wall']:15.2f}  "
            f"{t['run_wall']:15.2f}  {t['run_wall'] / t['floor_wall']:9.2f}x"
        )
    return "\n".join(lines)


def report_workflow(
    cfg: Mapping[str, Any],
    names: Sequence[str],
    cores: int,
    repo: Path,
    work: Path,
    args: Sequence[str],
    grid_only: bool = False,
    every: int = 1,
    floor_only: bool = False,
) -> str:
    """The workflow's wall time against every run untraced, `cores` at a time, in one sitting.

    grid_only: the workflow makes each study's tables and figures (its compare and plot rules)
    without the readings stage, and the floor leaves the readings' runs out too. every: the
    floor from every k-th run, estimated (a whole reproduction's floor costs nearly what the
    reproduction does). floor_only: the floor alone, for a reproduction timed beside it."""
    readings = not grid_only
    floor = floor_all(cfg, names, cores, work / "floor", readings, every)
    grid = sum(len(registry.get(n).runs(cfg[n])) for n in names)
    head = (
        f"{floor.runs} runs ({grid} of the grids, {floor.runs - grid} of their own rules and "
        f"readings; twins once) of {', '.join(names)} on {cores} cores: "
        f"{floor_text(floor, cores)}"
    )
    if floor_only:
        return "\n".join([head, *runs_cpu_text(floor)])
    targets = [t for n in names for t in (f"compare_published_{n}", f"plot_figures_{n}")]
    wall, cpu = workflow_wall(repo, work / "repo", cores, args, targets if grid_only else ("all",))
    ratio = wall / (floor.seconds / cores)
    spread = ""
    if floor.half:
        low, high = (wall / ((floor.seconds + d) / cores) for d in (floor.half, -floor.half))
        spread = f" ({low:.2f}-{high:.2f}x over the floor's 95 % interval)"
    return (
        f"{head}; workflow wall {wall:.1f} s; ratio {ratio:.2f}x{spread}\n"
        f"CPU (user + system): workflow {cpu:.1f} s, floor {floor.cpu:.1f} s, ratio "
        f"{cpu / floor.cpu:.2f}x; the cores were busy {cpu / (wall * cores):.0%} of the wall"
    )
