# Shared setup: find the studies, read their config files and the config profile's, validate the
# config before anything runs, and plan each study's batches of runs.
import glob
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from bufrepro import backends, registry
from bufrepro.pipeline import announce, configuration, plan, scheduling

BASE = Path(workflow.basedir)

for _name in registry.names():

    configfile: str(BASE / "config" / f"{_name}.yaml")


# A config profile (config key `profile`, e.g. set by config/quick.yaml) merges its per-study
# files, config/profiles/<profile>/, over the defaults; --configfile and --config still win
# over it. (A Snakemake profile, profiles/slurm/ given with --profile, is another thing: it says
# where jobs run.)
for _file in configuration.profile_files(str(config.get("profile") or "")):

    configfile: str(_file)


# Every file Snakemake read, read again strictly (a duplicated key, a YAML 1.1 boolean such as
# `gentle: no`, a file that is not a mapping: each named with its file), then the merged config.
configuration.check_files(workflow.configfiles)
CFG = configuration.validate(config)
STUDIES = CFG["studies"]
BATCHES = {s: plan.batches(CFG, s) for s in STUDIES}
# Further simulators per study (config key simulators): their runs, tables and the
# cross-simulator table (rules/simulators.smk).
OTHER_SIMULATORS = {s: plan.other_simulators(CFG, s) for s in STUDIES}
OTHER_BATCHES = {
    (s, b): plan.batches(CFG, s, b) for s in STUDIES for b in OTHER_SIMULATORS[s]
}
# The further simulator that runs queues beyond a study's grid ("" if none): the report's
# today's-queues section (rules/queues.smk).
QUEUE_BACKEND = {s: plan.queue_backend(CFG, s) for s in STUDIES}
BACKENDS = sorted(
    {registry.get(s).backend for s in STUDIES}
    | {b for s in STUDIES for b in OTHER_SIMULATORS[s]}
)
# Rule files found by name: each selected study's and each used backend's, where they exist.
RULE_FILES = [
    str(f)
    for f in [
        *(BASE / "rules" / "backends" / f"{b}.smk" for b in BACKENDS),
        *(BASE / "rules" / "studies" / f"{s}.smk" for s in STUDIES),
    ]
    if f.is_file()
]


def study_config(name):
    """The validated config restricted to one study (what its jobs read)."""
    keep = {k: v for k, v in CFG.items() if k not in (*registry.names(), "experiments")}
    keep["studies"] = [name]
    keep[name] = CFG[name]
    return keep


def batch_manifests(study):
    """The manifest of every batch of a study."""
    return [
        f"results/{study}/batches/{plan.batch_name(i)}.tsv"
        for i in range(len(BATCHES[study]))
    ]


def _batch_inputs(name):
    study = registry.get(name)
    backend = backends.get(study.backend, CFG)
    return {
        "config": f"results/{name}/config.yaml",
        # The study's templates with what they include, and its parsers with the AWK library.
        "template": sorted(
            glob.glob(f"tcl/{Path(study.template).parent}/*.j2")
            + glob.glob("tcl/lib/*.j2")
        ),
        "parsers": [
            f"awk/{p}"
            for p in (
                study.parser,
                *study.other_parsers,
                study.tally_parser,
                study.side_parser,
            )
            if p
        ]
        + sorted(glob.glob("awk/lib/*.awk")),
        "backend": backend.requires(study.backend_options),
    }


BATCH_INPUTS = {s: _batch_inputs(s) for s in STUDIES}


def batch_inputs(wildcards):
    """What a batch job reads: the study's config, template and parsers, the backend's needs."""
    return BATCH_INPUTS[wildcards.study]


def figure_files(study):
    """The figures a study draws."""
    return [f"results/{study}/figures/{f}.png" for f in registry.get(study).figures]


def shown_table_files(study):
    """The further tables of a study that the report shows."""
    return [
        f"results/{study}/tables/{t}.csv" for t in registry.get(study).shown_tables()
    ]


def other_batch_manifests(study, backend):
    """The manifest of every batch of a study on a further simulator."""
    return [
        f"results/{study}/{backend}/batches/{plan.batch_name(i)}.tsv"
        for i in range(len(OTHER_BATCHES[(study, backend)]))
    ]


def other_batch_inputs(wildcards):
    """What a further simulator's batch job reads: the config, the study's parsers, the build."""
    study = registry.get(wildcards.study)
    backend = backends.get(wildcards.backend, CFG)
    chosen = study.scenarios[wildcards.backend]
    return {
        "config": f"results/{wildcards.study}/config.yaml",
        "parsers": [
            f"awk/{chosen[k]}" for k in ("parser", "tally_parser") if chosen.get(k)
        ]
        + sorted(glob.glob("awk/lib/*.awk")),
        "backend": backend.requires({}),
    }


def cross_sim_files(study):
    """The cross-simulator tables of a study run on further simulators (none otherwise)."""
    if not OTHER_SIMULATORS[study]:
        return []
    return [
        f"results/{study}/tables/{t}.csv"
        for t in ("cross_sim", "cross_sim_counts", "cross_sim_published")
    ]


def queue_files(study):
    """The today's-queues tables and figure of a study (none unless QUEUE_BACKEND names one)."""
    if not QUEUE_BACKEND[study]:
        return []
    return [
        f"results/{study}/tables/queues_claims.csv",
        f"results/{study}/tables/queues_conclusions.csv",
        f"results/{study}/figures/queues.png",
    ]


def final_outputs():
    """Everything the default target builds: per-study tables and figures, and the report."""
    out = ["report/index.html"] if STUDIES else []
    for study in STUDIES:
        out += [
            f"results/{study}/tables/summary.csv",
            f"results/{study}/tables/diff.csv",
            f"results/{study}/tables/claims.csv",
            *figure_files(study),
            *shown_table_files(study),
            *cross_sim_files(study),
            *queue_files(study),
        ]
    return out
