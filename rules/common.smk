# Shared setup: validate the config before anything runs, and index the run grid.
import json
import sys

import yaml
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from bufrepro import config as bconfig
from bufrepro import grid
from bufrepro import render
from bufrepro import studies

CFG = bconfig.validate(config)
STUDIES = CFG["studies"]
RUNS = {p.run_dir: p for study in STUDIES for p in grid.expand(CFG, study)}
BASE = Path(workflow.basedir)
AWK_DIR = str(BASE / "awk")
RUN = "results/{study}/runs/{point}/seed{seed}"
# The patched ns-2 (ns2/build.sh, cached under NS2_PREFIX) for the studies with Study.ns "patched".
NS2_PREFIX = CFG["ns2_prefix"] or str(BASE / ".ns2")
NS2_STAMP = "results/ns2/ns-patched.json"


def generic(rule):
    """Regex of the studies whose paths the generic `rule` makes (a study's own .smk may replace
    it: Study.own_rules); matches nothing when every study replaces it."""
    names = [s for s in STUDIES if rule not in studies.get(s).own_rules]
    return "|".join(names) if names else "(?!x)x"


def published_file(wildcards):
    """The study's published table (published/<study>.csv unless the study names another)."""
    return f"published/{studies.get(wildcards.study).published_file}"


def report_table_files(study):
    """The further tables of a study that the report shows (Study.report_tables)."""
    return [f"results/{study}/tables/{t}.csv" for t in studies.get(study).report_tables]


def series_runs(study, setup):
    """Run folders of one setup of a study for its monitor.series_seed (time-series figures)."""
    seed = CFG[study]["monitor"]["series_seed"]
    return [
        d
        for d, p in RUNS.items()
        if p.study == study and p.get("setup") == setup and p.seed == seed
    ]


def ns_binary(wildcards):
    """The ns-2 executable of a study: Debian's (ns_binary) or the patched build."""
    if studies.get(wildcards.study).ns == "patched":
        return f"{NS2_PREFIX}/bin/ns-patched"
    return CFG["ns_binary"]


def ns_build(wildcards):
    """The patched ns-2's build record for the studies that run on it; nothing otherwise."""
    return [NS2_STAMP] if studies.get(wildcards.study).ns == "patched" else []


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
    """AWK parameters of a run, from its study: measurement window, limits, bottleneck link."""
    point = run_point(wildcards)
    return studies.get(point.study).parse_args(CFG[point.study], point)


def figure_files(study):
    """The figures a study draws."""
    return [f"results/{study}/figures/{f}.png" for f in studies.get(study).figures]


def final_outputs():
    """Everything the default target builds - per-study tables and figures, and the HTML report."""
    out = ["report/index.html"]
    for study in STUDIES:
        out += [
            f"results/{study}/tables/summary.csv",
            f"results/{study}/tables/diff.csv",
            f"results/{study}/tables/claims.csv",
            *figure_files(study),
            *report_table_files(study),
        ]
    return out
