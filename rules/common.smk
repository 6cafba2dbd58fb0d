# Shared setup: find the studies, read their config files and the config profile's, validate the
# config before anything runs, and plan each study's batches of runs.
import glob
import re
import sys
from pathlib import Path

import yaml
from snakemake.exceptions import WorkflowError

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
# Further simulators per study (config key simulators): their runs, tables and the
# cross-simulator table (rules/simulators.smk).
OTHER_SIMULATORS = {s: plan.other_simulators(CFG, s) for s in STUDIES}
# The further simulator that runs queues beyond a study's grid ("" if none): the report's
# today's-queues section (rules/queues.smk).
QUEUE_BACKEND = {s: plan.queue_backend(CFG, s) for s in STUDIES}
BACKENDS = sorted(
    {registry.get(s).own_simulator() for s in STUDIES}
    | {b for s in STUDIES for b in OTHER_SIMULATORS[s]}
    | {side.simulator for s in STUDIES for side in registry.get(s).sides().values()}
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
# Every batch's scope (kit.scope.Scope: owner, simulator, role), planned once: each study on its
# own simulator and on each further one, its side runs, each experiment. Its text is its folder
# under results/ (the one batch rule's {scope}, rules/simulate.smk).
SCOPES = {str(s): s for s in batch.scopes(CFG)}
BATCH_SCOPES = list(SCOPES)
# The batches of each study's scope (an experiment's are staged: rules/experiments*).
SCOPE_BATCHES = {
    t: batch.batches(CFG, s) for t, s in SCOPES.items() if not s.experiment
}


def experiment_scope(name):
    """The scope of an experiment's batches (experiments/<name>)."""
    return next(s for s in SCOPES.values() if s.experiment and s.owner == name)


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


def scope_manifests(text):
    """The manifest of every batch of a study's scope (its text: <study>, <study>/<further
    simulator>, <study>/<side>)."""
    return manifests(
        text, [plan.batch_name(i) for i in range(len(SCOPE_BATCHES[text]))]
    )


def batch_manifests(study):
    """The manifest of every batch of a study on its own simulator."""
    return scope_manifests(study)


def _scope_inputs(text):
    chosen = SCOPES[text]
    made = batch.bound(CFG, chosen)
    owner = str(chosen) if chosen.experiment else chosen.owner
    simulator = backends.get(made.backend, CFG)
    return {
        "config": f"results/{owner}/config.yaml",
        # The files the backend renders the scenario from and those its parsers read (both as
        # the backend says), and what it needs first (e.g. ns-3's build record).
        "template": simulator.scenario_files(made.template),
        "parsers": simulator.parsers.files(made.parsers),
        "backend": simulator.requires(made.options),
    }


BATCH_INPUTS = {s: _scope_inputs(s) for s in BATCH_SCOPES}


def batch_inputs(wildcards):
    """What a batch job reads: its owner's config, scenario and parsers, the backend's needs,
    and an experiment's refining buffers for its refine stage."""
    out = dict(BATCH_INPUTS[wildcards.scope])
    if wildcards.batch.startswith("refine-"):
        name = SCOPES[wildcards.scope].owner
        out["refine"] = str(experiment_plan.refine_file(name))
    return out


def all_cores():
    """Every core Snakemake was given (1 where it was given none: --report, --lint, and a
    cluster executor without --cores, where workflow.cores raises)."""
    try:
        return int(workflow.cores or 1)
    except WorkflowError:
        return 1


def batch_threads(wildcards):
    """A batch's threads: an experiment's batch runs its runs on every core the workflow has
    (one job, one Python start-up, a stage), a study's batch one at a time."""
    return all_cores() if SCOPES[wildcards.scope].experiment else 1


def side_manifests(study, side):
    """The manifest of every batch of a study's side runs of one kind (Study.sides)."""
    return scope_manifests(f"{study}/{side}")


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
    return scope_manifests(f"{study}/{backend}")


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
