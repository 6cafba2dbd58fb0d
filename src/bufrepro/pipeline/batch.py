"""Plan every batch's scope and run one batch of any owner's runs in one process."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro import backends, registry
from bufrepro.backends.base import RunSpec
from bufrepro.backends.factory import Bound, spec
from bufrepro.backends.runall import execute_all
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.scope import Scope, parse
from bufrepro.pipeline import plan
from bufrepro.pipeline.experiments import plan as experiment_plan


def scopes(cfg: Mapping[str, Any]) -> list[Scope]:
    """Every batch scope of the config: each study on its own simulator, on each further one
    (config key simulators) and its side runs (Study.sides); each experiment on its simulator.
    The one place that tells an owner's own simulator from a further one."""
    out: list[Scope] = []
    for name in cfg["studies"]:
        study = registry.get(name)
        out.append(Scope(name, study.own_simulator()))
        out += [Scope(name, b, "further") for b in plan.other_simulators(cfg, name)]
        out += [Scope(name, s.simulator, "side", k) for k, s in study.sides().items()]
    for name in sorted(cfg.get("experiments", {})):
        out.append(Scope(name, experiment_plan.resolve(cfg, name).backend, "experiment"))
    return out


def scope(cfg: Mapping[str, Any], text: str) -> Scope:
    """The scope printed as `text` (the batch rule's {scope}, a folder under results/)."""
    return parse(text, scopes(cfg))


def bound(cfg: Mapping[str, Any], chosen: Scope) -> Bound:
    """The scenario of a scope's runs: its owner's declaration on its simulator, bound to what
    its runs are planned from."""
    if chosen.experiment:
        return experiment_plan.bound(experiment_plan.resolve(cfg, chosen.owner))
    if chosen.role == "side":
        side = registry.get(chosen.owner).sides()[chosen.side]
        setup = side.setup(cfg[chosen.owner])
        return Bound(chosen.owner, side.simulator, side.declaration, setup)
    return plan.bound(cfg, chosen.owner, chosen.simulator if chosen.role == "further" else "")


def batches(cfg: Mapping[str, Any], chosen: Scope) -> list[list[RunPoint]]:
    """A study's scope's runs cut into batches of runs_per_job (an experiment's are staged)."""
    if chosen.role == "side":
        study = registry.get(chosen.owner)
        points = study.sides()[chosen.side].points(cfg[chosen.owner])
        return plan.cut(points, plan.runs_per_job(cfg, study))
    further = chosen.simulator if chosen.role == "further" else ""
    return plan.batches(cfg, chosen.owner, further)


def scope_specs(cfg: Mapping[str, Any], chosen: Scope, base: Path = Path()) -> list[RunSpec]:
    """Every run of a study's scope, as the factory makes it (the benchmark's floor)."""
    made = bound(cfg, chosen)
    return [spec(made, p, base) for b in batches(cfg, chosen) for p in b]


def batch_specs(cfg: Mapping[str, Any], chosen: Scope, batch: str) -> tuple[str, list[RunSpec]]:
    """(simulator, specs) of one batch of a scope."""
    if chosen.experiment:
        return experiment_plan.batch_specs(experiment_plan.resolve(cfg, chosen.owner), batch)
    index = plan.batch_index(batch)
    all_batches = batches(cfg, chosen)
    if index >= len(all_batches):
        raise ValueError(f"{chosen} has {len(all_batches)} batches; there is no {batch}")
    made = bound(cfg, chosen)
    return made.backend, [spec(made, p) for p in all_batches[index]]


def run_batch(
    cfg: Mapping[str, Any], text: str, batch: str, manifest: Path, threads: int = 1
) -> int:
    """Run every run of the batch of scope `text` not yet current, `threads` at a time; write
    the manifest when all succeeded.

    A failed run does not stop the others (their results are kept); the job then fails, naming
    each failed run and the command that reproduces it. Returns the number of runs made.
    """
    backend, specs = batch_specs(cfg, scope(cfg, text), batch)
    done = execute_all(
        backends.get(backend, cfg),
        specs,
        bool(cfg.get("keep_traces", False)),
        f"runs of {text} {batch}",
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
