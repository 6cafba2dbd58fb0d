"""Verify a results tree by re-simulating its runs and comparing them byte for byte."""

from __future__ import annotations

import csv
import dataclasses
import datetime
import json
import math
import random
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bufrepro import backends, registry
from bufrepro.backends import factory
from bufrepro.backends.base import Backend, RunFailed, RunSpec, execute, run_key
from bufrepro.kit import binding, checks, scope, tables
from bufrepro.pipeline import batch

# The default share of runs re-simulated: a tree with k tampered runs is caught with
# probability at least 1 - (1 - DEFAULT_SAMPLE)^k (97 % for k = 5), at half its CPU.
DEFAULT_SAMPLE = 0.5
# The record `verify` writes at the tree's root, and the report's provenance reads.
RECORD = "verify.json"
# Folders of a tree that hold no runs.
NOT_RUNS = (".reuse", "logs", "report", "tables")


@dataclass(frozen=True)
class Outcome:
    """One run's verification: same, differs (with why) or refused (with why)."""

    run: str
    status: str
    reason: str
    cell: str
    cpu_s: float


def runs_of(results: Path) -> list[Path]:
    """Every finished run of the tree: a folder with run.json and metrics.tsv."""
    found = (p.parent for p in results.rglob("metrics.tsv") if (p.parent / "run.json").is_file())
    return sorted(d for d in found if not set(d.relative_to(results).parts) & set(NOT_RUNS))


def pick(runs: Sequence[Path], fraction: float, seed: int) -> list[Path]:
    """A uniform sample of ceil(fraction x runs) runs (all of them for fraction 1)."""
    n = min(len(runs), math.ceil(fraction * len(runs)))
    return sorted(random.Random(seed).sample(list(runs), n))


def catch_probability(total: int, tampered: int, checked: int) -> float:
    """P(a uniform sample of `checked` of `total` runs holds one of `tampered` runs)."""
    if tampered <= 0 or total <= 0:
        return 0.0
    if tampered > total - checked:
        return 1.0
    miss = math.comb(total - tampered, checked) / math.comb(total, checked)
    return 1.0 - miss


def recorded_cpu(run_dir: Path) -> float:
    """The CPU seconds run.json records for the run (0 for a twin or an unreadable record)."""
    try:
        meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        return float(sum(meta.get("cpu_s", {}).values()))
    except (OSError, ValueError, TypeError, AttributeError):
        return 0.0


def cell_of(params: Mapping[str, Any]) -> str:
    """The table cell a run rests on: its study and swept values (every seed of them)."""
    values = ", ".join(f"{k}={v}" for k, v in sorted(params.items()) if k not in binding.NOT_SWEPT)
    return f"{params.get('study', '?')}: {values}"


def recorded_simulator(params: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """The simulator a run recorded: params.json's (every run's since each records it), else
    run.json's, which every run has recorded (a params.json made before: an own run's, since a
    further simulator's always named it)."""
    return str(params.get("simulator") or meta.get("simulator") or "")


def published_rows(results: Path, params: Mapping[str, Any]) -> list[str]:
    """The published rows compared with the run's cell (results/<study>/tables/diff.csv rows
    whose swept values are the run's and that have a counterpart): "table, row, metric". Only
    a run of the study's own simulator rests on them (Study.own_simulator; a record without a
    simulator, made before every run recorded it, is the own simulator's)."""
    path = results / str(params.get("study", "")) / "tables" / "diff.csv"
    if not path.is_file():
        return []
    own = registry.get(str(params["study"])).own_simulator()
    if str(params.get("simulator", own)) != own:
        return []
    swept = {k: v for k, v in params.items() if k not in binding.NOT_SWEPT}
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return [
        ", ".join(f"{k} {r[k]}" for k in ("table", "section", "row", "metric", "in_pi") if r.get(k))
        for r in rows
        if r.get("has_counterpart") == "True"
        and all(k in r and _same(r[k], v) for k, v in swept.items())
    ]


def _same(text: str, value: Any) -> bool:
    try:
        return abs(float(text) - float(value)) < 1e-9
    except (TypeError, ValueError):
        return text == str(value)


def scope_of(
    scopes: Sequence[scope.Scope], params: Mapping[str, Any], meta: Mapping[str, Any], folder: str
) -> scope.Scope:
    """The scope a run was made in, from its records: its owner (params.json's study) on its
    simulator (recorded_simulator), the one whose folder holds the run (folder: relative to
    results/) where several do (a study's side runs), else the owner's grid."""
    # An experiment's record made before its owner was its bare name says experiments/<name>.
    owner = str(params["study"]).removeprefix(f"{scope.EXPERIMENT_FOLDER}/")
    mine = [s for s in scopes if s.owner == owner]
    simulator = recorded_simulator(params, meta)
    if simulator:
        mine = [s for s in mine if s.simulator == simulator]
    holding = [s for s in mine if folder.startswith(f"{s}/")]
    if holding:
        return scope.of_run(folder, holding)
    grid = [s for s in mine if s.role != "side"]
    if not grid:
        raise ValueError(f"no scope of this config runs {owner} on {simulator or '?'}")
    return grid[0]


def rebuild(
    cfg: Mapping[str, Any],
    run_dir: Path,
    meta: Mapping[str, Any],
    params: Mapping[str, Any],
    folder: str,
) -> tuple[str, RunSpec]:
    """The run's simulator and spec from its own records, by the one spec factory
    (factory.recorded): params.json (the template and its variables) and run.json (the parsers
    and their variables); the scope its folder (under results/) sits in gives the owner's
    declaration and its files' names."""
    made = batch.bound(cfg, scope_of(batch.scopes(cfg), params, meta, folder))
    parser, _, side = str(meta["parser"]).partition(" + ")
    spec = factory.recorded(made, run_dir, params, parser, meta["parser_args"], side)
    return made.backend, spec


def _build_problem(meta: Mapping[str, Any], identity: Mapping[str, str]) -> str:
    """Why the simulator build at hand is not the recorded one ('' when it is)."""
    digests = [k for k in identity if k.endswith("sha256")]
    if not digests:
        return "this machine's simulator has no sha256 to compare with the recorded build"
    for k in digests:
        if meta.get(k) != identity[k]:
            return (
                f"the recorded simulator build is not at hand: run.json's {k} "
                f"{meta.get(k, '(none)')}, this machine's {identity[k]}"
            )
    return ""


def verify_run(cfg: Mapping[str, Any], run_dir: Path, scratch: Path, name: str) -> Outcome:
    """Check one run's binding, re-render, re-simulate and re-parse it in `scratch`, and
    compare its metrics.tsv (and a kept stream) byte for byte with the tree's."""
    cell = "?"
    try:
        meta = tables.read_record(run_dir)
        params = binding.read_params(run_dir, meta)
        cell = cell_of(params)
        tables.read_bound_metrics(run_dir)
    except checks.BadRunFiles as err:
        return Outcome(name, "differs", str(err), cell, 0.0)
    try:
        simulator, spec = rebuild(cfg, run_dir, meta, params, "/".join(Path(name).parts[1:]))
        backend = backends.get(simulator, cfg)
        name_on_disk, text = backend.scenario(spec)
        identity = backend.identity(spec)
    except (KeyError, ValueError, TypeError, OSError) as err:  # cannot rebuild: say so
        return Outcome(name, "refused", f"cannot rebuild the run: {err}", cell, 0.0)
    problem = _build_problem(meta, identity)
    if problem:
        return Outcome(name, "refused", problem, cell, 0.0)
    on_disk = (run_dir / name_on_disk).read_text(encoding="utf-8")
    if on_disk != text:
        why = f"{name_on_disk} is not what its params.json renders (re-rendered text differs)"
        return Outcome(name, "differs", why, cell, 0.0)
    recorded = {k: str(meta.get(k, "")) for k in identity}
    if run_key(spec, text, recorded, backend.parsers) != meta["key"]:
        why = (
            "run.json's key is not that of its scenario, parser variables and simulator with "
            "this checkout's parsers (a rewritten record, or parsers changed since the run)"
        )
        return Outcome(name, "differs", why, cell, 0.0)
    return _resimulate(backend, spec, run_dir, scratch, name, cell)


def _resimulate(
    backend: Backend, spec: RunSpec, run_dir: Path, scratch: Path, name: str, cell: str
) -> Outcome:
    again = dataclasses.replace(spec, run_dir=scratch / name)
    keep = (run_dir / spec.stream).is_file()
    try:
        execute(backend, again, keep_traces=keep)
    except RunFailed as err:
        return Outcome(name, "differs", f"the re-simulation fails: {err}", cell, 0.0)
    cpu = recorded_cpu(again.run_dir)
    if (again.run_dir / "metrics.tsv").read_bytes() != (run_dir / "metrics.tsv").read_bytes():
        why = "metrics.tsv differs from the re-simulated run's (same scenario, seed and build)"
        return Outcome(name, "differs", why, cell, cpu)
    if keep and binding.sha256(again.run_dir / spec.stream) != binding.sha256(
        run_dir / spec.stream
    ):
        return Outcome(name, "differs", f"the kept stream {spec.stream} differs", cell, cpu)
    return Outcome(name, "same", "", cell, cpu)


def verify(
    cfg: Mapping[str, Any], results: Path, fraction: float, seed: int
) -> tuple[list[Outcome], dict[str, Any]]:
    """Verify a sample (fraction 1: all) of the tree's runs; the outcomes and the record."""
    runs = runs_of(results)
    chosen = pick(runs, fraction, seed)
    with tempfile.TemporaryDirectory(prefix="bufrepro-verify-") as tmp:
        out = [verify_run(cfg, d, Path(tmp), str(d.relative_to(results.parent))) for d in chosen]
    record = {
        "verified_at": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "results": str(results),
        "mode": "all" if fraction >= 1 else f"sample {fraction:g}",
        "seed": seed,
        "runs_total": len(runs),
        "runs_checked": len(chosen),
        "same": sum(o.status == "same" for o in out),
        "differs": [dataclasses.asdict(o) for o in out if o.status == "differs"],
        "refused": [dataclasses.asdict(o) for o in out if o.status == "refused"],
        "cells_affected": sorted({o.cell for o in out if o.status != "same"}),
        "published_rows_affected": sorted(
            {row for d in chosen if _bad(out, d, results) for row in _rows_of(results, d)}
        ),
        "cpu_s": round(sum(o.cpu_s for o in out), 3),
        "catch_probability": {
            str(k): round(catch_probability(len(runs), k, len(chosen)), 4) for k in (1, 3, 5, 10)
        },
    }
    return out, record


def _bad(out: Sequence[Outcome], run_dir: Path, results: Path) -> bool:
    name = str(run_dir.relative_to(results.parent))
    return any(o.run == name and o.status != "same" for o in out)


def _rows_of(results: Path, run_dir: Path) -> list[str]:
    """The published rows resting on a run (none when its params.json cannot be read)."""
    try:
        params = json.loads((run_dir / "params.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [f"{params.get('study')}: {r}" for r in published_rows(results, params)]


def write_record(results: Path, record: Mapping[str, Any]) -> Path:
    """results/verify.json, which the report's provenance section reads."""
    path = results / RECORD
    path.write_text(json.dumps(dict(record), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def read_record(results: Path) -> dict[str, Any] | None:
    """The tree's verification record, or None when it was never verified (or unreadable)."""
    try:
        data = json.loads((results / RECORD).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def summary(record: Mapping[str, Any]) -> str:
    """One paragraph: what was checked, what differs, the cost and the catch probability."""
    lines = [
        f"verified {record['runs_checked']} of {record['runs_total']} runs ({record['mode']}, "
        f"seed {record['seed']}) at {record['verified_at']}: {record['same']} identical, "
        f"{len(record['differs'])} differ, {len(record['refused'])} refused; "
        f"{record['cpu_s']} s of CPU re-simulating",
    ]
    probs = ", ".join(f"{k}: {v:.1%}" for k, v in record["catch_probability"].items())
    lines.append(f"probability that k tampered runs are caught: {probs}")
    for o in [*record["differs"], *record["refused"]]:
        lines.append(f"{o['status'].upper()} {o['run']} [{o['cell']}]: {o['reason']}")
    if record["cells_affected"]:
        lines.append("table cells resting on those runs: " + "; ".join(record["cells_affected"]))
    if record.get("published_rows_affected"):
        rows = record["published_rows_affected"]
        lines.append(f"published rows compared with those cells ({len(rows)}): " + "; ".join(rows))
    return "\n".join(lines)
