"""Run one batch of any owner's runs in one process (a study on any backend, an experiment)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro import backends
from bufrepro.backends.base import RunSpec
from bufrepro.backends.factory import Scenario, spec
from bufrepro.backends.runall import execute_all
from bufrepro.pipeline import plan
from bufrepro.pipeline.experiments import plan as experiment_plan

# Where an experiment's batches are: a scope experiments/<name> (rules/simulate.smk).
EXPERIMENTS = "experiments/"


def scenario(cfg: Mapping[str, Any], scope: str) -> Scenario:
    """The scenario of a scope's runs: <study>, <study>/<backend> or experiments/<name>."""
    if scope.startswith(EXPERIMENTS):
        return experiment_plan.scenario(experiment_plan.resolve(cfg, scope[len(EXPERIMENTS) :]))
    name, _, backend = scope.partition("/")
    return plan.scenario(cfg, name, backend)


def batch_specs(cfg: Mapping[str, Any], scope: str, batch: str) -> tuple[str, list[RunSpec]]:
    """(backend, specs) of a batch: scope <study>, <study>/<backend> or experiments/<name>."""
    if scope.startswith(EXPERIMENTS):
        return experiment_plan.batch_specs(
            experiment_plan.resolve(cfg, scope[len(EXPERIMENTS) :]), batch
        )
    name, _, backend = scope.partition("/")
    index = plan.batch_index(batch)
    all_batches = plan.batches(cfg, name, backend)
    if index >= len(all_batches):
        raise ValueError(f"{name} has {len(all_batches)} batches; there is no {batch}")
    chosen = scenario(cfg, scope)
    return chosen.backend, [spec(chosen, p) for p in all_batches[index]]


def run_batch(
    cfg: Mapping[str, Any], scope: str, batch: str, manifest: Path, threads: int = 1
) -> int:
    """Run every run of the batch not yet current, `threads` at a time; write the manifest
    when all succeeded.

    A failed run does not stop the others (their results are kept); the job then fails, naming
    each failed run and the command that reproduces it. Returns the number of runs made.
    """
    backend, specs = batch_specs(cfg, scope, batch)
    done = execute_all(
        backends.get(backend, cfg),
        specs,
        bool(cfg.get("keep_traces", False)),
        f"runs of {scope} {batch}",
        threads=max(1, threads),
    )
    rows = [f"{d.spec.run_dir}\t{d.status}\t{d.seconds:.3f}" for d in done]
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text("run_dir\tstatus\tseconds\n" + "".join(f"{r}\n" for r in rows))
    return sum(d.status == "ran" for d in done)


def manifest_runs(manifests: list[Path]) -> list[str]:
    """The run folders listed in batch manifests, in order."""
    out: list[str] = []
    for path in manifests:
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        out += [line.split("\t", 1)[0] for line in lines if line]
    return out
