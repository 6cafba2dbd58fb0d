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
    run:
        from bufrepro import metrics, compare

        n = metrics.write_study_tables(
            wildcards.study,
            input.metrics,
            Path(output.runs),
            Path(output.summary),
            Path(output.provenance),
        )
        Path(log[0]).write_text(f"aggregated {n} runs\n")


rule compare_published:
    input:
        summary="results/{study}/tables/summary.csv",
        published="published/{study}.csv",
    output:
        diff="results/{study}/tables/diff.csv",
        claims="results/{study}/tables/claims.csv",
        coverage="results/{study}/tables/coverage.json",
    log:
        "results/{study}/logs/compare_published.log",
    run:
        from bufrepro import metrics, compare

        cov = compare.write_comparison(
            wildcards.study,
            CFG[wildcards.study],
            Path(input.summary),
            Path(input.published),
            Path(output.diff),
            Path(output.claims),
            Path(output.coverage),
        )
        Path(log[0]).write_text(f"coverage {cov}\n")


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
