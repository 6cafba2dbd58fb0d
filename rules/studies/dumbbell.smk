# Figures of the dumbbell study (also flagged for `snakemake --report`).


rule plot_dumbbell_figures:
    input:
        summary="results/dumbbell/tables/summary.csv",
        published="published/dumbbell.csv",
    output:
        delay=report(
            "results/dumbbell/figures/delay_vs_buffer.png",
            caption="../../report/captions/dumbbell/delay_vs_buffer.rst",
            category="dumbbell",
        ),
        throughput=report(
            "results/dumbbell/figures/throughput_vs_buffer.png",
            caption="../../report/captions/dumbbell/throughput_vs_buffer.rst",
            category="dumbbell",
        ),
        tradeoff=report(
            "results/dumbbell/figures/delay_vs_throughput.png",
            caption="../../report/captions/dumbbell/delay_vs_throughput.rst",
            category="dumbbell",
        ),
    log:
        "results/dumbbell/logs/plot_figures.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli plot --study dumbbell --summary {input.summary}"
        " --published {input.published} --out-dir results/dumbbell/figures > {log} 2>&1"
