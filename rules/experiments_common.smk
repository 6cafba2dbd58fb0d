# The named experiments' shared setup (their rules: rules/experiments.smk): the selected names,
# the config each one's jobs read, and the batches of its search stages.
from bufrepro.pipeline.experiments import plan as experiment_plan

EXPERIMENTS = sorted(CFG.get("experiments", {}))
EXPERIMENT_ROOT = "results/experiments/{experiment}"


def experiment_config(name):
    """The validated config restricted to one experiment (what its jobs read)."""
    keep = {k: v for k, v in CFG.items() if k not in (*registry.names(), "experiments")}
    keep.update(studies=[], experiments={name: CFG["experiments"][name]})
    return keep


def experiment_manifests(name, stage):
    """The manifests of a stage's batches (the refine stage's once its checkpoint ran)."""
    n_runs = len(experiment_plan.stage_points(CFG, name, stage))
    if not n_runs:
        return []
    n = experiment_plan.n_batches(CFG, name, n_runs)
    return [
        f"results/experiments/{name}/batches/{stage}-b{i:04d}.tsv" for i in range(n)
    ]


def experiment_batch_inputs(wildcards):
    """A batch's config, its backend's scenario (templates; ns-3's build record) and parser,
    and the refine stage's buffers."""
    kind = experiment_plan.kind_of(CFG, wildcards.experiment)
    block = experiment_plan.block(CFG, wildcards.experiment)
    template = kind.template_for(block)
    scenario = backends.get(kind.backend_for(block), CFG).requires(
        kind.options_for(block)
    )
    if template.endswith(".j2"):
        scenario += sorted(glob.glob(f"tcl/{Path(template).parent}/*.j2"))
    out = {
        "config": f"results/experiments/{wildcards.experiment}/config.yaml",
        "template": scenario,
        "parsers": [f"awk/{kind.parser}", *sorted(glob.glob("awk/lib/*.awk"))],
    }
    if wildcards.stage == "refine":
        out["refine"] = str(experiment_plan.refine_file(wildcards.experiment))
    return out


def refine_manifests(wildcards):
    """The refine stage's manifests, known once the checkpoint has picked its buffers."""
    checkpoints.refine_experiment.get(experiment=wildcards.experiment)
    return experiment_manifests(wildcards.experiment, "refine")


def experiment_outputs():
    """Each experiment's answer and page."""
    return [
        f
        for name in EXPERIMENTS
        for f in (
            f"results/experiments/{name}/answer.txt",
            f"report/experiments/{name}.html",
        )
    ]
