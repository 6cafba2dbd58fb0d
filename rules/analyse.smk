# Per study: aggregate the runs, diff against the published tables, judge the claims, draw.
# The rules are made per study (rule names end in the study's name) because each study declares
# its own further tables and figures; their steps are the same generic functions.

for _study in STUDIES:
    _spec = registry.get(_study)
    _tables = f"results/{_study}/tables"

    rule:
        name:
            f"aggregate_metrics_{_study}"
        input:
            config=f"results/{_study}/config.yaml",
            manifests=batch_manifests(_study),
        output:
            runs=f"{_tables}/runs.csv",
            summary=f"{_tables}/summary.csv",
            precision=f"{_tables}/precision.csv",
            provenance=f"results/{_study}/provenance.json",
            derived=[f"{_tables}/{t}.csv" for t in _spec.derived],
        log:
            f"results/{_study}/logs/aggregate_metrics.log",
        localrule: True
        params:
            python=sys.executable,
            study=_study,
            tables=lambda w, output: str(Path(output.summary).parent),
        shell:
            "{params.python} -m bufrepro.cli aggregate --config {input.config}"
            " --study {params.study} --tables {params.tables}"
            " --provenance {output.provenance} {input.manifests} > {log} 2>&1"

    rule:
        name:
            f"compare_published_{_study}"
        input:
            config=f"results/{_study}/config.yaml",
            tables=[
                f"{_tables}/{t}.csv"
                for t in ("runs", "summary", *_spec.derived, *_spec.rule_tables)
            ],
            published=[f"published/{f}" for f in _spec.published_files()],
        output:
            diff=f"{_tables}/diff.csv",
            claims=f"{_tables}/claims.csv",
            coverage=f"{_tables}/coverage.json",
            own=[f"{_tables}/{t}.csv" for t in _spec.tables],
        log:
            f"results/{_study}/logs/compare_published.log",
        localrule: True
        params:
            python=sys.executable,
            study=_study,
            tables=lambda w, output: str(Path(output.diff).parent),
        shell:
            "{params.python} -m bufrepro.cli compare --config {input.config}"
            " --study {params.study} --tables {params.tables} > {log} 2>&1"

    rule:
        name:
            f"plot_figures_{_study}"
        input:
            config=f"results/{_study}/config.yaml",
            tables=[
                f"{_tables}/{t}.csv"
                for t in (
                    "runs",
                    "summary",
                    "diff",
                    "claims",
                    *_spec.derived,
                    *_spec.rule_tables,
                    *_spec.tables,
                )
            ],
        output:
            [
                report(
                    f"results/{_study}/figures/{f}.png",
                    caption=f"../report/captions/{_study}/{f}.rst",
                    category=_study,
                )
                for f in _spec.figures
            ],
        log:
            f"results/{_study}/logs/plot_figures.log",
        localrule: True
        params:
            python=sys.executable,
            study=_study,
            tables=lambda w, input: str(Path(input.tables[0]).parent),
            figures=lambda w, output: str(Path(output[0]).parent),
        shell:
            "{params.python} -m bufrepro.cli plot --config {input.config} --study {params.study}"
            " --tables {params.tables} --out-dir {params.figures} > {log} 2>&1"


rule show_diff:
    input:
        config="results/config.validated.yaml",
        diff=expand("results/{study}/tables/diff.csv", study=STUDIES),
        claims=expand("results/{study}/tables/claims.csv", study=STUDIES),
        coverage=expand("results/{study}/tables/coverage.json", study=STUDIES),
        report="report/index.html",
    log:
        "results/logs/show_diff.log",
    localrule: True
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli show --config {input.config} 2> {log}"
