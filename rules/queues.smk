# Today's queues on the papers' grids: for a study whose further simulator runs queues beyond
# its grid (config key simulator_queues, e.g. CoDel, PIE and FQ-CoDel on ns3), each paper's
# claims judged again on every queue that simulator ran, a sentence per paper on whether its
# buffer-sizing conclusion still holds (bufrepro.pipeline.queues), and delay against
# throughput per queue. Each report item's caption is the study's own
# (report/captions/<study>/queues*.rst, study_caption in rules/wildcards.smk).


rule judge_queues:
    input:
        config=study_config,
        own_summary="results/{study}/tables/summary.csv",
        own_claims="results/{study}/tables/claims.csv",
        runs=lambda w: f"results/{w.study}/{QUEUE_BACKEND[w.study]}/tables/runs.csv",
        summary=lambda w: f"results/{w.study}/{QUEUE_BACKEND[w.study]}/tables/summary.csv",
    output:
        claims=report(
            "results/{study}/tables/queues_claims.csv",
            caption="../report/captions/study.rst",
            category="{study}",
            subcategory="Today's queues",
        ),
        conclusions="results/{study}/tables/queues_conclusions.csv",
    log:
        "results/{study}/logs/judge_queues.log",
    wildcard_constraints:
        study=one_of(QUEUE_STUDIES),
    localrule: True
    params:
        python=sys.executable,
        study=lambda w: w.study,
        backend=lambda w: QUEUE_BACKEND[w.study],
        tables=lambda w, output: str(Path(output.claims).parent),
        caption=lambda w: study_caption(w.study, "queues_claims"),
    shell:
        "{params.python} -m bufrepro.cli queues-judge --config {input.config}"
        " --study {params.study} --backend {params.backend} --out {params.tables}"
        " > {log} 2>&1"


rule plot_queues:
    input:
        config=study_config,
        summary=lambda w: f"results/{w.study}/{QUEUE_BACKEND[w.study]}/tables/summary.csv",
    output:
        figure=report(
            "results/{study}/figures/queues.png",
            caption="../report/captions/study.rst",
            category="{study}",
            subcategory="Today's queues",
        ),
    log:
        "results/{study}/logs/plot_queues.log",
    wildcard_constraints:
        study=one_of(QUEUE_STUDIES),
    localrule: True
    params:
        python=sys.executable,
        study=lambda w: w.study,
        backend=lambda w: QUEUE_BACKEND[w.study],
        caption=lambda w: study_caption(w.study, "queues"),
    shell:
        "{params.python} -m bufrepro.cli queues-plot --config {input.config}"
        " --study {params.study} --backend {params.backend} --out {output.figure}"
        " > {log} 2>&1"
