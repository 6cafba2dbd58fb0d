# The self-contained HTML report of every configured study, and the tables Snakemake's own
# report carries (the summary, and each study's diff, claims and claims on the calibrated
# reading). The report reads the command line of the Snakemake process that runs it
# (bufrepro.pipeline.report_text.snakemake_argv).


rule build_report:
    input:
        config="results/config.validated.yaml",
        summary=expand("results/{study}/tables/summary.csv", study=STUDIES),
        diff=expand("results/{study}/tables/diff.csv", study=STUDIES),
        claims=expand("results/{study}/tables/claims.csv", study=STUDIES),
        coverage=expand("results/{study}/tables/coverage.json", study=STUDIES),
        provenance=expand("results/{study}/provenance.json", study=STUDIES),
        tables=[f for study in STUDIES for f in shown_table_files(study)],
        cross_sim=[f for study in STUDIES for f in cross_sim_files(study)],
        queues=[f for study in STUDIES for f in queue_files(study)],
        figures=[f for study in STUDIES for f in figure_files(study)],
        template="report/report.html.j2",
        captions=sorted(str(p) for p in Path("report/captions").glob("**/*.rst")),
        readings=readings_outputs(),
        claims_calibrated=claims_calibrated_outputs(),
    output:
        html="report/index.html",
        summary=report(
            "results/report/summary.csv",
            caption="../report/captions/report/summary.rst",
            category="Summary",
        ),
        diffs=[
            report(
                f"results/report/{study}_diff.csv",
                caption="../report/captions/report/diff.rst",
                category=study,
                subcategory="Tables",
            )
            for study in STUDIES
        ],
        claims=[
            report(
                f"results/report/{study}_claims.csv",
                caption="../report/captions/report/claims.rst",
                category=study,
                subcategory="Tables",
            )
            for study in STUDIES
        ],
        claims_calibrated=[
            report(
                f"results/report/{study}_claims_calibrated.csv",
                caption="../report/captions/report/claims_calibrated.rst",
                category=study,
                subcategory="Tables",
            )
            for study in STUDIES
        ],
    log:
        "results/logs/build_report.log",
    localrule: True
    params:
        python=sys.executable,
        tables=lambda w, output: str(Path(output.summary).parent),
    shell:
        "{params.python} -m bufrepro.cli report --config {input.config} --results results"
        " --template {input.template} --out {output.html} --tables-out {params.tables}"
        " > {log} 2>&1"
