# One run: render its TCL, run ns-2, parse the trace with AWK.


rule render_tcl:
    output:
        tcl=f"{RUN}/sim.tcl",
        params=f"{RUN}/params.json",
    log:
        "results/{study}/logs/render_tcl/{point}/seed{seed}.log",
    params:
        python=sys.executable,
        record=run_record_json,
    shell:
        "{params.python} -m bufrepro.render {output.tcl} {output.params} {params.record:q} > {log} 2>&1"


rule run_ns2:
    input:
        tcl=f"{RUN}/sim.tcl",
        ns=ns_build,
    output:
        trace=f"{RUN}/out.tr" if CFG["keep_traces"] else temp(f"{RUN}/out.tr"),
        meta=f"{RUN}/run.json",
    log:
        "results/{study}/logs/run_ns2/{point}/seed{seed}.log",
    benchmark:
        "results/{study}/benchmarks/run_ns2/{point}/seed{seed}.tsv"
    wildcard_constraints:
        study=generic("run_ns2"),
    params:
        ns=ns_binary,
        script=BASE / "scripts" / "run_ns2.sh",
    shell:
        "bash {params.script} {params.ns} {input.tcl} {output.trace} {output.meta} > {log} 2>&1"


rule parse_trace:
    input:
        trace=f"{RUN}/out.tr",
        meta=f"{RUN}/run.json",
    output:
        metrics=f"{RUN}/metrics.tsv",
    log:
        "results/{study}/logs/parse_trace/{point}/seed{seed}.log",
    benchmark:
        "results/{study}/benchmarks/parse_trace/{point}/seed{seed}.tsv"
    wildcard_constraints:
        study=generic("parse_trace"),
    params:
        script=BASE / "scripts" / "parse_trace.sh",
        awk=AWK_DIR,
        a=parse_args,
    shell:
        "bash {params.script} {params.awk} {input.trace} {output.metrics}"
        " {params.a[t0]} {params.a[t1]} {params.a[t_end]} {params.a[max_age]}"
        " {params.a[link_from]} {params.a[link_to]} {params.a[link_bps]} > {log} 2>&1"
