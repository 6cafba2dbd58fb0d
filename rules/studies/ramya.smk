# The ramya study's own rules: its runs write the TCP agent's RTT samples, the ping log and the
# queue samples beside the trace, so it replaces the generic run_ns2, parse_trace and
# compare_published (Study.own_rules); plus the Fig. 3 series and the figures.
# Traces (out.tr, rtt.tr, ping.tr) are temporary unless keep_traces; queue.tr is kept for Fig. 3.


rule run_ns2_ramya:
    input:
        tcl=f"{RUN}/sim.tcl",
    output:
        trace=f"{RUN}/out.tr" if CFG["keep_traces"] else temp(f"{RUN}/out.tr"),
        meta=f"{RUN}/run.json",
        rtt=f"{RUN}/rtt.tr" if CFG["keep_traces"] else temp(f"{RUN}/rtt.tr"),
        ping=f"{RUN}/ping.tr" if CFG["keep_traces"] else temp(f"{RUN}/ping.tr"),
        queue=f"{RUN}/queue.tr",
    log:
        "results/{study}/logs/run_ns2/{point}/seed{seed}.log",
    benchmark:
        "results/{study}/benchmarks/run_ns2/{point}/seed{seed}.tsv"
    wildcard_constraints:
        study="ramya",
    params:
        ns=CFG["ns_binary"],
        script=BASE / "scripts" / "run_ns2.sh",
    shell:
        "bash {params.script} {params.ns} {input.tcl} {output.trace} {output.meta} > {log} 2>&1"


rule parse_trace_ramya:
    input:
        trace=f"{RUN}/out.tr",
        meta=f"{RUN}/run.json",
        rtt=f"{RUN}/rtt.tr",
        ping=f"{RUN}/ping.tr",
        queue=f"{RUN}/queue.tr",
    output:
        metrics=f"{RUN}/metrics.tsv",
    log:
        "results/{study}/logs/parse_trace/{point}/seed{seed}.log",
    benchmark:
        "results/{study}/benchmarks/parse_trace/{point}/seed{seed}.tsv"
    wildcard_constraints:
        study="ramya",
    params:
        script=BASE / "scripts" / "parse_ramya.sh",
        awk=AWK_DIR,
        a=parse_args,
    shell:
        "bash {params.script} {params.awk} {input.trace} {input.rtt} {input.ping} {input.queue}"
        " {output.metrics} {params.a[t0]} {params.a[t1]} {params.a[t_end]} {params.a[max_age]}"
        " {params.a[link_from]} {params.a[link_to]} {params.a[link_bps]} > {log} 2>&1"


rule compare_ramya:
    input:
        config="results/config.validated.yaml",
        summary="results/ramya/tables/summary.csv",
        published="published/ramya.csv",
    output:
        diff="results/ramya/tables/diff.csv",
        claims="results/ramya/tables/claims.csv",
        coverage="results/ramya/tables/coverage.json",
        notes="results/ramya/tables/notes.csv",
    log:
        "results/ramya/logs/compare_published.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.ramya_steps compare --config {input.config}"
        " --summary {input.summary} --published {input.published} --diff {output.diff}"
        " --claims {output.claims} --coverage {output.coverage} --notes {output.notes}"
        " > {log} 2>&1"


rule ramya_queue_series:
    input:
        # queue.tr (and params.json) of every latency run of the series seed.
        queues=lambda w: [f"{d}/queue.tr" for d in series_runs("ramya", "latency")],
        params=lambda w: [f"{d}/params.json" for d in series_runs("ramya", "latency")],
    output:
        "results/ramya/tables/queue_series.csv",
    log:
        "results/ramya/logs/queue_series.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.ramya_steps series --out {output} {input.queues}"
        " > {log} 2>&1"


rule plot_ramya_figures:
    input:
        summary="results/ramya/tables/summary.csv",
        published="published/ramya.csv",
        series="results/ramya/tables/queue_series.csv",
    output:
        table1=report(
            "results/ramya/figures/table1.png",
            caption="../../report/captions/ramya/table1.rst",
            category="ramya",
        ),
        table5=report(
            "results/ramya/figures/table5.png",
            caption="../../report/captions/ramya/table5.rst",
            category="ramya",
        ),
        ping=report(
            "results/ramya/figures/ping_rtt_vs_buffer.png",
            caption="../../report/captions/ramya/ping_rtt_vs_buffer.rst",
            category="ramya",
        ),
        queue=report(
            "results/ramya/figures/queue_over_time.png",
            caption="../../report/captions/ramya/queue_over_time.rst",
            category="ramya",
        ),
        remedy=report(
            "results/ramya/figures/rwnd_remedy.png",
            caption="../../report/captions/ramya/rwnd_remedy.rst",
            category="ramya",
        ),
    log:
        "results/ramya/logs/plot_figures.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.ramya_steps plot --summary {input.summary}"
        " --published {input.published} --series {input.series}"
        " --out-dir results/ramya/figures > {log} 2>&1"
