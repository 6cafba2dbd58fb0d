# The self-contained HTML report of every configured study.


rule build_report:
    input:
        config="results/config.validated.yaml",
        summary=expand("results/{study}/tables/summary.csv", study=STUDIES),
        diff=expand("results/{study}/tables/diff.csv", study=STUDIES),
        claims=expand("results/{study}/tables/claims.csv", study=STUDIES),
        coverage=expand("results/{study}/tables/coverage.json", study=STUDIES),
        provenance=expand("results/{study}/provenance.json", study=STUDIES),
        tables=[f for study in STUDIES for f in shown_table_files(study)],
        figures=[f for study in STUDIES for f in figure_files(study)],
        template="report/report.html.j2",
    output:
        html="report/index.html",
    log:
        "results/logs/build_report.log",
    localrule: True
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli report --config {input.config} --results results"
        " --template {input.template} --out {output.html} > {log} 2>&1"
