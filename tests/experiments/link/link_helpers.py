"""Run a link experiment's stages in-process with the real ns-2 (no Snakemake), for the tests."""

from __future__ import annotations

from typing import Any

import pandas as pd

from bufrepro import backends
from bufrepro.backends.base import execute
from bufrepro.kit.experiment import run_points
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import configuration
from bufrepro.pipeline.experiments import answer, plan, run
from conftest import merged


def config(name: str, block: dict[str, Any]) -> dict[str, Any]:
    """The validated config of one experiment and no study."""
    return configuration.validate(merged({"studies": [], "experiments": {name: block}}))


def run_points_now(cfg: dict[str, Any], name: str, points: list[RunPoint]) -> None:
    """Run each point (or find it current) in the working directory, on the experiment's
    simulator."""
    exp = plan.resolve(cfg, name)
    backend = backends.get(exp.backend, cfg)
    for p in points:
        execute(backend, plan.spec(exp, p))


def fixed(cfg: dict[str, Any], name: str, pairs: list[tuple[str, int]]) -> pd.DataFrame:
    """Runs of the given (queue, buffer) pairs on every seed: a row each, with the metrics."""
    exp = plan.resolve(cfg, name)
    points = run_points(name, exp.kind, pairs, exp.block["seeds"])
    run_points_now(cfg, name, points)
    rows = [
        {"queue": p.values[0][1], "buffer": p.values[1][1], "seed": p.seed, **run.metrics(p)}
        for p in points
    ]
    return pd.DataFrame(rows)


def searched(cfg: dict[str, Any], name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Both search stages run as the workflow runs them; (runs, recommendation)."""
    exp = plan.resolve(cfg, name)
    run_points_now(cfg, name, plan.stage_points(exp, "coarse"))
    run.write_refinement(exp, exp.refine_file)
    run_points_now(cfg, name, plan.stage_points(exp, "refine"))
    runs = answer.runs_frame(exp)
    describe = exp.kind.describe(exp.setup)
    return runs, answer.recommend(runs, exp.block, describe)


def link(
    rate: str = "5Mbit", rtt: str = "40ms", flows: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    """A small link's block: 20 s measured after 5 s."""
    block: dict[str, Any] = {
        "link": {"rate": rate, "rtt": rtt, "loss": extra.pop("loss", "0")},
        "flows": {"count": 1, "cc": "sack", **(flows or {})},
        "queues": extra.pop("queues", ["DropTail"]),
        "run": {"warmup": "5s", "measure": extra.pop("measure", "20s")},
        "seeds": extra.pop("seeds", [1, 2]),
    }
    block.update(extra)
    return block
