# The named experiments' shared setup (their rules: rules/experiments.smk): the selected names,
# the config each one's jobs read, and the batches of its search stages.
EXPERIMENT_ROOT = "results/experiments/{experiment}"


def experiment_manifests(name, stage):
    """The manifests of a stage's batches (the refine stage's once its checkpoint ran)."""
    exp = experiment_plan.resolve(CFG, name)
    n_runs = len(experiment_plan.stage_points(exp, stage))
    if not n_runs:
        return []
    n = experiment_plan.n_batches(exp, n_runs)
    return manifests(
        experiment_scope(name),
        [f"{stage}-{plan.batch_name(i)}" for i in range(n)],
    )


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
