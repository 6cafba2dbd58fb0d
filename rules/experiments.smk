# Named experiments (config key `experiments`; `bufrepro advise` writes one): scenarios with no
# published table, so no diff, claims, coverage or readings. Each one searches its axis in two
# stages (bufrepro.pipeline.experiments): coarse log-spaced runs, a checkpoint that picks the
# refining runs near the knee, those runs, then one job that writes the answer, its tables,
# figures and page (report/experiments/<name>.html). Functions: rules/experiments_common.smk.


rule write_experiment_config:
    output:
        f"{EXPERIMENT_ROOT}/config.yaml",
    log:
        f"{EXPERIMENT_ROOT}/logs/write_experiment_config.log",
    localrule: True
    params:
        text=lambda w: yaml.safe_dump(
            owner_config(w.experiment, experiment=True), sort_keys=True
        ),
    shell:
        "printf '%s' {params.text:q} > {output} && echo 'wrote {output}' > {log}"


checkpoint refine_experiment:
    input:
        config=f"{EXPERIMENT_ROOT}/config.yaml",
        manifests=lambda w: experiment_manifests(w.experiment, "coarse"),
    output:
        refine=f"{EXPERIMENT_ROOT}/search/refine.json",
    log:
        f"{EXPERIMENT_ROOT}/logs/refine_experiment.log",
    localrule: True
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli experiment-refine --config {input.config}"
        " --experiment {wildcards.experiment} --out {output.refine} > {log} 2>&1"


rule answer_experiment:
    input:
        config=f"{EXPERIMENT_ROOT}/config.yaml",
        coarse=lambda w: experiment_manifests(w.experiment, "coarse"),
        refine=refine_manifests,
        template="report/experiment.html.j2",
    output:
        answer=f"{EXPERIMENT_ROOT}/answer.txt",
        data=f"{EXPERIMENT_ROOT}/answer.json",
        table=f"{EXPERIMENT_ROOT}/tables/answer.csv",
        runs=f"{EXPERIMENT_ROOT}/tables/runs.csv",
        rules=f"{EXPERIMENT_ROOT}/tables/rules.csv",
        figures=[
            report(
                f"{EXPERIMENT_ROOT}/figures/{f}.png",
                caption="../report/captions/experiments/{f}.rst".format(f=f),
                category="experiments",
            )
            for f in experiment_plan.FIGURES
        ],
        page="report/experiments/{experiment}.html",
    log:
        f"{EXPERIMENT_ROOT}/logs/answer_experiment.log",
    localrule: True
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli experiment-answer --config {input.config}"
        " --experiment {wildcards.experiment} --template {input.template}"
        " --page {output.page} > {log} 2>&1"
