# Per study: aggregate the runs, diff against the published tables, check the claims.


rule aggregate_metrics:
    input:
        metrics=run_files("metrics.tsv"),
        params=run_files("params.json"),
        meta=run_files("run.json"),
    output:
        runs="results/{study}/tables/runs.csv",
        summary="results/{study}/tables/summary.csv",
        provenance="results/{study}/provenance.json",
    log:
        "results/{study}/logs/aggregate_metrics.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli aggregate --study {wildcards.study}"
        " --runs {output.runs} --summary {output.summary} --provenance {output.provenance}"
        " {input.metrics} > {log} 2>&1"


rule compare_published:
    input:
        config="results/config.validated.yaml",
        summary="results/{study}/tables/summary.csv",
        published=published_file,
    output:
        diff="results/{study}/tables/diff.csv",
        claims="results/{study}/tables/claims.csv",
        coverage="results/{study}/tables/coverage.json",
    log:
        "results/{study}/logs/compare_published.log",
    wildcard_constraints:
        study=generic("compare_published"),
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli compare --config {input.config} --study {wildcards.study}"
        " --summary {input.summary} --published {input.published} --diff {output.diff}"
        " --claims {output.claims} --coverage {output.coverage} > {log} 2>&1"


rule show_diff:
    input:
        diff=expand("results/{study}/tables/diff.csv", study=STUDIES),
        claims=expand("results/{study}/tables/claims.csv", study=STUDIES),
        coverage=expand("results/{study}/tables/coverage.json", study=STUDIES),
    log:
        "results/logs/show_diff.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.compare show {input.diff} 2> {log}"
