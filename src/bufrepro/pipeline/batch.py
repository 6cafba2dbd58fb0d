"""Run one batch of a study in one process: render, simulate and parse each run in turn."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro import backends, registry
from bufrepro.backends.runall import execute_all
from bufrepro.pipeline import plan


def run_batch(
    cfg: Mapping[str, Any], name: str, batch: str, manifest: Path, backend: str = ""
) -> int:
    """Run every run of the batch not yet current; write the manifest when all succeeded.

    A failed run does not stop the others (their results are kept); the job then fails, naming
    each failed run and the command that reproduces it. Returns the number of runs made.
    `backend`: one of the study's other simulators (plan.other_simulators); default its own.
    """
    study = registry.get(name)
    index = plan.batch_index(batch)
    all_batches = plan.batches(cfg, name, backend)
    if index >= len(all_batches):
        raise ValueError(f"{name} has {len(all_batches)} batches; there is no {batch}")
    simulator = backends.get(backend or study.backend, cfg)
    done = execute_all(
        simulator,
        [plan.spec(cfg, point) for point in all_batches[index]],
        bool(cfg.get("keep_traces", False)),
        f"runs of {name} {batch}",
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
