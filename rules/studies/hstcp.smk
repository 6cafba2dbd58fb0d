# The hstcp study's own rules (Study.own_rules): runs whose bottleneck stream is parsed while ns
# runs, the two-flow runs of Figs. 5-6, the model's curves, the comparison and the figures.


include: "hstcp_functions.smk"


rule run_hstcp:
    input:
        tcl=f"{RUN}/sim.tcl",
    output:
        metrics=f"{RUN}/metrics.tsv",
        meta=f"{RUN}/run.json",
    log:
        "results/{study}/logs/run_hstcp/{point}/seed{seed}.log",
    benchmark:
        "results/{study}/benchmarks/run_hstcp/{point}/seed{seed}.tsv"
    wildcard_constraints:
        study="hstcp",
    params:
        ns=CFG["ns_binary"],
        script=BASE / "scripts" / "run_hstcp.sh",
        awk=HSTCP_AWK,
        keep=HSTCP_KEEP,
        a=parse_args,
    shell:
        "bash {params.script} {params.ns} {input.tcl} {output.metrics} {output.meta} {params.awk}"
        " {params.keep} {params.a[t0]} {params.a[t1]} {params.a[t_end]} {params.a[from]}"
        " {params.a[to]} {params.a[bps]} {params.a[pkt]} > {log} 2>&1"


rule render_twoflow:
    output:
        tcl=f"{TWOFLOW}/sim.tcl",
        params=f"{TWOFLOW}/params.json",
    log:
        "results/hstcp/logs/render_twoflow/{case}/seed{seed}.log",
    wildcard_constraints:
        case="|".join(hstcp_study.TWOFLOW_CASES),
    params:
        python=sys.executable,
        record=twoflow_record_json,
    shell:
        "{params.python} -m bufrepro.render {output.tcl} {output.params} {params.record:q} > {log} 2>&1"


rule run_twoflow:
    input:
        tcl=f"{TWOFLOW}/sim.tcl",
    output:
        metrics=f"{TWOFLOW}/metrics.tsv",
        meta=f"{TWOFLOW}/run.json",
        series=f"{TWOFLOW}/timeseries.tsv",
    log:
        "results/hstcp/logs/run_twoflow/{case}/seed{seed}.log",
    benchmark:
        "results/hstcp/benchmarks/run_twoflow/{case}/seed{seed}.tsv"
    wildcard_constraints:
        case="|".join(hstcp_study.TWOFLOW_CASES),
    params:
        ns=CFG["ns_binary"],
        script=BASE / "scripts" / "run_hstcp.sh",
        awk=HSTCP_AWK,
        keep=HSTCP_KEEP,
        a=twoflow_awk,
    shell:
        "bash {params.script} {params.ns} {input.tcl} {output.metrics} {output.meta} {params.awk}"
        " {params.keep} {params.a[t0]} {params.a[t1]} {params.a[t_end]} {params.a[from]}"
        " {params.a[to]} {params.a[bps]} {params.a[pkt]} > {log} 2>&1"


rule hstcp_twoflow_table:
    input:
        metrics=twoflow_files("metrics.tsv"),
        params=twoflow_files("params.json"),
    output:
        runs="results/hstcp/tables/twoflow_runs.csv",
        summary="results/hstcp/tables/twoflow_summary.csv",
    log:
        "results/hstcp/logs/twoflow_table.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.hstcp_cli twoflow --runs {output.runs}"
        " --summary {output.summary} {input.metrics} > {log} 2>&1"


rule hstcp_model:
    input:
        config="results/config.validated.yaml",
    output:
        model="results/hstcp/tables/model.csv",
    log:
        "results/hstcp/logs/model.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.hstcp_cli model --config {input.config}"
        " --out {output.model} > {log} 2>&1"


rule compare_hstcp:
    input:
        config="results/config.validated.yaml",
        summary="results/hstcp/tables/summary.csv",
        published="published/hstcp_claims.csv",
        model="results/hstcp/tables/model.csv",
        twoflow="results/hstcp/tables/twoflow_summary.csv",
    output:
        diff="results/hstcp/tables/diff.csv",
        claims="results/hstcp/tables/claims.csv",
        coverage="results/hstcp/tables/coverage.json",
        model_vs_sim="results/hstcp/tables/model_vs_sim.csv",
    log:
        "results/hstcp/logs/compare.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.hstcp_cli compare --config {input.config}"
        " --summary {input.summary} --published {input.published} --model {input.model}"
        " --twoflow {input.twoflow} --diff {output.diff} --claims {output.claims}"
        " --coverage {output.coverage} --model-vs-sim {output.model_vs_sim} > {log} 2>&1"


rule plot_hstcp_figures:
    input:
        summary="results/hstcp/tables/summary.csv",
        model="results/hstcp/tables/model.csv",
        under=first_twoflow("under"),
        over=first_twoflow("over"),
    output:
        **{
            name: report(
                f"results/hstcp/figures/{name}.png",
                caption=f"../../report/captions/hstcp/{name}.rst",
                category="hstcp",
            )
            for name in hstcp_study.FIGURES
        },
    log:
        "results/hstcp/logs/plot_figures.log",
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.hstcp_cli plot --summary {input.summary}"
        " --model {input.model} --under {input.under} --over {input.over}"
        " --out-dir results/hstcp/figures > {log} 2>&1"
