"""Bind a run's input files to its record and its folder: digests and the folder's point."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from bufrepro.kit import checks
from bufrepro.kit.grid import fmt

# The rendered scenario a backend writes into the run folder (ns-2: sim.tcl; ns-3: sim.args).
SCENARIO_FILES = ("sim.tcl", "sim.args")
# params.json keys that are not the run's swept values.
NOT_SWEPT = ("params", "template", "study", "seed", "simulator")
# The last folder of every run the plan places (RunPoint.run_dir, the two-flow runs).
SEED_FOLDER = re.compile(r"seed[0-9]+")
# A folder's label before its value (grid labels: "bw", "buf", "frac", "" for a queue name).
LABEL = re.compile(r"[A-Za-z_]*")


def sha256(path: Path) -> str:
    """The sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def scenario_file(run_dir: Path) -> Path | None:
    """The run folder's rendered scenario, if any."""
    return next((run_dir / n for n in SCENARIO_FILES if (run_dir / n).is_file()), None)


def input_digests(run_dir: Path) -> dict[str, str]:
    """run.json's keys binding the run's inputs: params.json's and the scenario's sha256."""
    out = {"params_sha256": sha256(run_dir / "params.json")}
    scenario = scenario_file(run_dir)
    if scenario is not None:
        out |= {"scenario_file": scenario.name, "scenario_sha256": sha256(scenario)}
    return out


def inputs_current(run_dir: Path, record: dict[str, Any]) -> bool:
    """True when the record's input digests are those of the folder's files."""
    try:
        return all(record.get(k) == v for k, v in input_digests(run_dir).items())
    except OSError:
        return False


def read_params(run_dir: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """A run's params.json, bound: its sha256 is run.json's params_sha256, the scenario's is
    scenario_sha256, its swept values and seed are those of the folder it sits in and its
    fingerprint is run.json's. Raises checks.BadRunFiles naming the run, the file and the
    command that remakes it."""
    path = run_dir / "params.json"
    redo = f"remake it by running the workflow again, or by hand: {meta.get('command', '?')}"
    try:
        data = path.read_bytes()
    except OSError as err:
        raise checks.BadRunFiles(f"run {run_dir}: {path.name} unreadable: {err}; {redo}") from None
    problems = _digest_problems(run_dir, meta, data)
    if problems:
        raise checks.BadRunFiles(f"run {run_dir}: {'; '.join(problems)}; {redo}")
    try:
        params = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise checks.BadRunFiles(f"{path}: not JSON: {err}") from None
    if not isinstance(params, dict):
        raise checks.BadRunFiles(f"{path}: not a JSON object")
    problems = folder_problems(run_dir, params) + _fingerprint_problems(meta, params)
    if problems:
        raise checks.BadRunFiles(f"run {run_dir}: {'; '.join(problems)}; {redo}")
    return params


def _digest_problems(run_dir: Path, meta: dict[str, Any], params: bytes) -> list[str]:
    if "params_sha256" not in meta:
        return ["run.json has no params_sha256 (a record that binds no params.json)"]
    problems = []
    if hashlib.sha256(params).hexdigest() != meta["params_sha256"]:
        problems.append(
            "params.json is not the file this run was made from (its sha256 differs from "
            "run.json's params_sha256: edited, or copied from another run?)"
        )
    name = meta.get("scenario_file")
    if name is not None:
        scenario = run_dir / str(name)
        if not scenario.is_file() or sha256(scenario) != meta.get("scenario_sha256"):
            problems.append(
                f"{name} is not the scenario this run simulated (missing, or its sha256 "
                "differs from run.json's scenario_sha256)"
            )
    return problems


def folder_problems(run_dir: Path, params: dict[str, Any]) -> list[str]:
    """The swept values and seed of params.json against the folder's names: the last folder
    is seed<N>, and each swept value ends one of the folders just above it (bw0.5, buf10).
    A folder not named seed<N> is no folder of the plan (aggregation reads the plan's): not
    checked."""
    seed = params.get("seed")
    if not SEED_FOLDER.fullmatch(run_dir.name):
        return []  # not a folder of the plan (a test's or a tool's scratch run): no names
    if run_dir.name != f"seed{seed}":
        return [f"params.json's seed {seed} is not its folder's ({run_dir.name})"]
    values = sorted(
        (fmt(v) for k, v in params.items() if k not in NOT_SWEPT), key=len, reverse=True
    )
    parts = list(run_dir.parent.parts[-len(values) :]) if values else []
    for text in values:
        hit = next((p for p in parts if _names(p, text)), None)
        if hit is None:
            return [f"params.json's value {text} is not in its folder's path ({run_dir})"]
        parts.remove(hit)
    return []


def _names(part: str, text: str) -> bool:
    """A folder name is a value's text after a label of letters only (bw0.5, buf10, DropTail)."""
    return part.endswith(text) and LABEL.fullmatch(part[: len(part) - len(text)]) is not None


def _fingerprint_problems(meta: dict[str, Any], params: dict[str, Any]) -> list[str]:
    """run.json's parser fingerprint (study, swept values, seed) is params.json's."""
    mine = meta.get("parser_args", {}).get("fingerprint")
    theirs = params.get("params", {}).get("fingerprint") if isinstance(params, dict) else None
    if mine and theirs and mine != theirs:
        return [f"run.json's fingerprint '{mine}' is not params.json's '{theirs}'"]
    return []
