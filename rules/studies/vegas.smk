# The vegas study's own rules. Its runs use the generic render_tcl and run_ns2 (on the patched
# ns-2: rules/ns2.smk); the parse reads a wired-cum-wireless trace and also writes a throughput
# series, and the comparison adds Tables V-VI (computed from the config) and the notes.


rule parse_trace_vegas:
    input:
        trace=f"{RUN}/out.tr",
        meta=f"{RUN}/run.json",
    output:
        metrics=f"{RUN}/metrics.tsv",
        series=f"{RUN}/series.tsv",
    log:
        "results/{study}/logs/parse_trace/{point}/seed{seed}.log",
    benchmark:
        "results/{study}/benchmarks/parse_trace/{point}/seed{seed}.tsv"
    wildcard_constraints:
        study="vegas",
    params:
        script=BASE / "scripts" / "parse_vegas.sh",
        awk=AWK_DIR,
        a=parse_args,
    shell:
        "bash {params.script} {params.awk} {input.trace} {output.metrics} {output.series}"
        " {params.a[t0]} {params.a[t1]} {params.a[t_end]} {params.a[max_age]} {params.a[src]}"
        " {params.a[dst]} {params.a[fid]} {params.a[hdr]} {params.a[traced]}"
        " {params.a[link_from]} {params.a[link_to]} {params.a[link_bps]} {params.a[bin_s]}"
        " > {log} 2>&1"


rule compare_vegas:
    input:
        config="results/config.validated.yaml",
        summary="results/vegas/tables/summary.csv",
        runs="results/vegas/tables/runs.csv",
        published="published/vegas.csv",
    output:
        diff="results/vegas/tables/diff.csv",
        claims="results/vegas/tables/claims.csv",
        coverage="results/vegas/tables/coverage.json",
        notes="results/vegas/tables/notes.csv",
        bdp="results/vegas/tables/bdp.csv",
    log:
        "results/vegas/logs/compare_published.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.vegas_steps compare --config {input.config}"
        " --summary {input.summary} --runs {input.runs} --published {input.published}"
        " --diff {output.diff}"
        " --claims {output.claims} --coverage {output.coverage} --notes {output.notes}"
        " --bdp {output.bdp} > {log} 2>&1"


rule vegas_series:
    input:
        # series.tsv (and params.json) of every RTT-setup run of the series seed.
        series=lambda w: [f"{d}/series.tsv" for d in series_runs("vegas", "rtt")],
        params=lambda w: [f"{d}/params.json" for d in series_runs("vegas", "rtt")],
    output:
        "results/vegas/tables/throughput_series.csv",
    log:
        "results/vegas/logs/throughput_series.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.vegas_steps series --out {output} {input.series}"
        " > {log} 2>&1"


rule plot_vegas_figures:
    input:
        summary="results/vegas/tables/summary.csv",
        published="published/vegas.csv",
        bdp="results/vegas/tables/bdp.csv",
        series="results/vegas/tables/throughput_series.csv",
    output:
        packet=report(
            "results/vegas/figures/packet_size.png",
            caption="../../report/captions/vegas/packet_size.rst",
            category="vegas",
        ),
        rtt=report(
            "results/vegas/figures/rtt.png",
            caption="../../report/captions/vegas/rtt.rst",
            category="vegas",
        ),
        ratio=report(
            "results/vegas/figures/buffer_ratio.png",
            caption="../../report/captions/vegas/buffer_ratio.rst",
            category="vegas",
        ),
        series=report(
            "results/vegas/figures/throughput_over_time.png",
            caption="../../report/captions/vegas/throughput_over_time.rst",
            category="vegas",
        ),
    log:
        "results/vegas/logs/plot_figures.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.vegas_steps plot --summary {input.summary}"
        " --published {input.published} --bdp {input.bdp} --series {input.series}"
        " --out-dir results/vegas/figures > {log} 2>&1"
