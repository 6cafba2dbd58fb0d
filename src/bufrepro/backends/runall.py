"""Many runs of one stage, `threads` at a time: each made or found current, twins taken."""

from __future__ import annotations

import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bufrepro.backends import reuse
from bufrepro.backends.base import Backend, RunFailed, RunSpec, execute


@dataclass(frozen=True)
class Done:
    """A run made or found current by execute_all: its spec, status and seconds taken."""

    spec: RunSpec
    status: str
    seconds: float


def execute_all(
    backend: Backend, specs: Iterable[RunSpec], keep_traces: bool, what: str, threads: int = 1
) -> list[Done]:
    """Run (or find current) each run, `threads` at a time, printing its status; a failed run
    does not stop the others, and RunFailed then names every failure, each with its reproduce
    command. The one loop of every stage that runs many runs (batches, readings, side runs):
    a run whose twin (reuse.reuse_key) was made here or by another job takes its metrics."""
    todo = list(specs)
    twins = reuse.Twins()

    def one(spec: RunSpec) -> Done | str:
        start = time.monotonic()
        try:
            status = execute(backend, spec, keep_traces, twins)
        except (RunFailed, OSError) as err:
            print(f"FAILED {spec.run_dir}: {err}", flush=True)
            return str(err)
        took = time.monotonic() - start
        print(f"{status:7} {spec.run_dir} ({took:.2f} s)", flush=True)
        return Done(spec, status, took)

    if threads > 1:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            results = list(pool.map(one, todo))
    else:
        results = [one(spec) for spec in todo]
    failures = [r for r in results if isinstance(r, str)]
    if failures:
        raise RunFailed(f"{len(failures)} of {len(todo)} {what} failed:\n" + "\n".join(failures))
    return [r for r in results if isinstance(r, Done)]
