# Figures (also flagged for `snakemake --report`) and the self-contained HTML report.


rule plot_figures:
    input:
        summary="results/{study}/tables/summary.csv",
        published="published/{study}.csv",
    output:
        delay=report(
            "results/{study}/figures/delay_vs_buffer.png",
            caption="../report/captions/delay_vs_buffer.rst",
            category="{study}",
        ),
        throughput=report(
            "results/{study}/figures/throughput_vs_buffer.png",
            caption="../report/captions/throughput_vs_buffer.rst",
            category="{study}",
        ),
        tradeoff=report(
            "results/{study}/figures/delay_vs_throughput.png",
            caption="../report/captions/delay_vs_throughput.rst",
            category="{study}",
        ),
    log:
        "results/{study}/logs/plot_figures.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli plot --summary {input.summary}"
        " --published {input.published} --delay {output.delay}"
        " --throughput {output.throughput} --tradeoff {output.tradeoff} > {log} 2>&1"


rule build_report:
    input:
        config="results/config.validated.yaml",
        summary=expand("results/{study}/tables/summary.csv", study=STUDIES),
        diff=expand("results/{study}/tables/diff.csv", study=STUDIES),
        claims=expand("results/{study}/tables/claims.csv", study=STUDIES),
        coverage=expand("results/{study}/tables/coverage.json", study=STUDIES),
        provenance=expand("results/{study}/provenance.json", study=STUDIES),
        figures=expand(
            "results/{study}/figures/{fig}.png",
            study=STUDIES,
            fig=["delay_vs_buffer", "throughput_vs_buffer", "delay_vs_throughput"],
        ),
        template="report/report.html.j2",
    output:
        html="report/index.html",
    log:
        "results/logs/build_report.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli report --config {input.config} --results results"
        " --template {input.template} --out {output.html} > {log} 2>&1"
