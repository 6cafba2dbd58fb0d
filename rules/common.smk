# Shared setup: validate the config before anything runs, and index the run grid.
import json
import sys

import yaml
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from bufrepro import config as bconfig
from bufrepro import grid
from bufrepro import render

CFG = bconfig.validate(config)
STUDIES = CFG["studies"]
RUNS = {p.run_dir: p for study in STUDIES for p in grid.expand(CFG, study)}
BASE = Path(workflow.basedir)
AWK_DIR = str(BASE / "awk")
RUN = "results/{study}/runs/{point}/seed{seed}"


def run_point(wildcards):
    """The validated run point of a job; a path outside the configured grid is an error."""
    run_dir = f"results/{wildcards.study}/runs/{wildcards.point}/seed{wildcards.seed}"
    if run_dir not in RUNS:
        raise ValueError(
            f"{run_dir} is not a run of the configured {wildcards.study} grid"
        )
    return RUNS[run_dir]


def run_record_json(wildcards):
    """JSON of a run's template variables, computed here from the validated config."""
    return json.dumps(render.run_record(CFG, run_point(wildcards)), sort_keys=True)


def run_files(name):
    """Input function: file `name` of every run of the study."""

    def files(wildcards):
        return [f"{d}/{name}" for d, p in RUNS.items() if p.study == wildcards.study]

    return files


def parse_args(wildcards):
    """AWK parameters of a run: measurement window, accounting limits, bottleneck link."""
    point = run_point(wildcards)
    measure = CFG[point.study]["measure"]
    return {
        "t0": measure["warmup_s"],
        "t1": measure["duration_s"],
        "max_age": measure["max_in_flight_age_s"],
        "link_from": 4,
        "link_to": 5,
        "link_bps": int(round(point.get("bottleneck_mbps") * 1e6)),
    }


def final_outputs():
    """Everything the default target builds - per-study tables and figures, and the HTML report."""
    out = ["report/index.html"]
    for study in STUDIES:
        out += [
            f"results/{study}/tables/summary.csv",
            f"results/{study}/tables/diff.csv",
            f"results/{study}/tables/claims.csv",
        ]
    return out
