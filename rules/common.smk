# Shared setup: find the studies, read their config files and the config profile's, validate the
# config before anything runs, and plan each study's batches of runs.
import glob
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from bufrepro import backends, registry
from bufrepro.pipeline import announce, batch, configuration, plan, scheduling
from bufrepro.pipeline.experiments import plan as experiment_plan

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
    {registry.get(s).own_simulator() for s in STUDIES}
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


EXPERIMENTS = sorted(CFG.get("experiments", {}))
# Every batch's owner and simulator, as its folder under results/ names them (the one batch
# rule, rules/simulate.smk): <study>, <study>/<further simulator>, experiments/<name>.
BATCH_SCOPES = [
    *STUDIES,
    *(f"{s}/{b}" for s in STUDIES for b in OTHER_SIMULATORS[s]),
    *(f"{batch.EXPERIMENTS}{e}" for e in EXPERIMENTS),
]


def owner_config(name, experiment=False):
    """The validated config restricted to one study or experiment (what its jobs read)."""
    keep = {k: v for k, v in CFG.items() if k not in (*registry.names(), "experiments")}
    if experiment:
        keep.update(studies=[], experiments={name: CFG["experiments"][name]})
    else:
        keep["studies"] = [name]
        keep[name] = CFG[name]
    return keep


def manifests(scope, names):
    """The manifests of the named batches of a scope (results/<scope>/batches/<name>.tsv)."""
    return [f"results/{scope}/batches/{n}.tsv" for n in names]


def batch_manifests(study):
    """The manifest of every batch of a study."""
    return manifests(study, [plan.batch_name(i) for i in range(len(BATCHES[study]))])


def _scope_inputs(scope):
    chosen = batch.scenario(CFG, scope)
    if scope.startswith(batch.EXPERIMENTS):
        config = f"results/{scope}/config.yaml"
    else:
        config = f"results/{scope.partition('/')[0]}/config.yaml"
    made = backends.get(chosen.backend, CFG)
    return {
        "config": config,
        # The files the backend renders the scenario from and those its parsers read (both as
        # the backend says), and what it needs first (e.g. ns-3's build record).
        "template": made.scenario_files(chosen.template),
        "parsers": made.parsers.files(chosen.parsers),
        "backend": made.requires(chosen.options),
    }


BATCH_INPUTS = {s: _scope_inputs(s) for s in BATCH_SCOPES}


def batch_inputs(wildcards):
    """What a batch job reads: its owner's config, scenario and parsers, the backend's needs,
    and an experiment's refining buffers for its refine stage."""
    out = dict(BATCH_INPUTS[wildcards.scope])
    if wildcards.batch.startswith("refine-"):
        name = wildcards.scope[len(batch.EXPERIMENTS) :]
        out["refine"] = str(experiment_plan.refine_file(name))
    return out


def batch_threads(wildcards):
    """A batch's threads: an experiment's batch runs its runs on every core the workflow has
    (one job, one Python start-up, a stage), a study's batch one at a time."""
    return workflow.cores if wildcards.scope.startswith(batch.EXPERIMENTS) else 1


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
    names = [plan.batch_name(i) for i in range(len(OTHER_BATCHES[(study, backend)]))]
    return manifests(f"{study}/{backend}", names)


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
