# Today's queues on the papers' grids: for a study whose further simulator runs queues beyond
# its grid (config key simulator_queues, e.g. CoDel, PIE and FQ-CoDel on ns3), each paper's
# claims judged again on every queue that simulator ran, a sentence per paper on whether its
# buffer-sizing conclusion still holds (bufrepro.pipeline.queues), and delay against
# throughput per queue.

for _study in STUDIES:
    _other = QUEUE_BACKEND[_study]
    if not _other:
        continue

    rule:
        name:
            f"judge_queues_{_study}"
        input:
            config=f"results/{_study}/config.yaml",
            own_summary=f"results/{_study}/tables/summary.csv",
            own_claims=f"results/{_study}/tables/claims.csv",
            runs=f"results/{_study}/{_other}/tables/runs.csv",
            summary=f"results/{_study}/{_other}/tables/summary.csv",
        output:
            claims=report(
                f"results/{_study}/tables/queues_claims.csv",
                caption=f"../report/captions/{_study}/queues_claims.rst",
                category=_study,
                subcategory="Today's queues",
            ),
            conclusions=f"results/{_study}/tables/queues_conclusions.csv",
        log:
            f"results/{_study}/logs/judge_queues.log",
        localrule: True
        params:
            python=sys.executable,
            study=_study,
            backend=_other,
            tables=lambda w, output: str(Path(output.claims).parent),
        shell:
            "{params.python} -m bufrepro.cli queues-judge --config {input.config}"
            " --study {params.study} --backend {params.backend} --out {params.tables}"
            " > {log} 2>&1"

    rule:
        name:
            f"plot_queues_{_study}"
        input:
            config=f"results/{_study}/config.yaml",
            summary=f"results/{_study}/{_other}/tables/summary.csv",
        output:
            figure=report(
                f"results/{_study}/figures/queues.png",
                caption=f"../report/captions/{_study}/queues.rst",
                category=_study,
                subcategory="Today's queues",
            ),
        log:
            f"results/{_study}/logs/plot_queues.log",
        localrule: True
        params:
            python=sys.executable,
            study=_study,
            backend=_other,
        shell:
            "{params.python} -m bufrepro.cli queues-plot --config {input.config}"
            " --study {params.study} --backend {params.backend} --out {output.figure}"
            " > {log} 2>&1"
