"""What an experiment's runs would cost before any runs: runs, CPU and wall on the cores given."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bufrepro.pipeline.experiments import plan

# The workflow's wall from the cost model's CPU (simulator and parsers): the workflow's own work
# (Snakemake, batches, answer, page) adds about 40 % to their CPU and ~3 s of start-up, measured
# on the README link (18.9 CPU s in all for 13.7 s of ns and parsers, 11.8 s of wall on 2 cores,
# commit bd8de62): wall ~ cpu x 1.4 / cores + 3 s.
WORKFLOW_CPU_FACTOR = 1.4
WORKFLOW_START_S = 3.0
PLANNED = (
    "[advise] planned: at most {runs} runs, about {cpu_s:.0f} CPU s of simulation and parsing; "
    "about {wall_s:.0f} s of wall on {cores} cores (the guard's cost model; run it without "
    "--no-run to measure)"
)


def planned(exp: plan.Resolved, cores: int) -> dict[str, Any]:
    """The runs an experiment would make and their estimated CPU and wall ({} without a model)."""
    price = exp.kind.price(exp.block)
    if price is None:
        return {}
    wall = price.cpu_s * WORKFLOW_CPU_FACTOR / cores + WORKFLOW_START_S
    return {
        "planned": {
            "runs": price.runs,
            "cpu_s": round(price.cpu_s, 1),
            "wall_s": round(wall, 1),
            "cores": cores,
        }
    }


def said(exp: plan.Resolved, cores: int, made: Mapping[str, Any], as_json: bool) -> str:
    """What `advise --no-run` prints on stdout: the plan's line, or with --json the written
    config's record and the plan as one JSON object (each ending in a newline)."""
    plan_of = planned(exp, cores)
    if as_json:
        return json.dumps({**made, **plan_of}, indent=1) + "\n"
    return PLANNED.format(**plan_of["planned"]) + "\n" if plan_of else ""
