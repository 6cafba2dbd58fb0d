# The hstcp study's own rule: the two-flow runs of Figs. 5-6 (results/hstcp/twoflow/<case>/
# seed<N>/, each keeping its cwnd and queue time series), run in one job with the generic
# executor (bufrepro.studies.hstcp.twoflow); runs already current are not run again. Its tables:
# twoflow_runs and twoflow_summary (compare reads the summary for the fairness claim) and
# twoflow_series (the first seed's series of each case, for the figures).


rule run_twoflow:
    input:
        config="results/hstcp/config.yaml",
        template="tcl/hstcp/hstcp.tcl.j2",
        parser="awk/hstcp/hstcp.awk",
        ns2="results/ns2/ns-patched.json",
    output:
        runs="results/hstcp/tables/twoflow_runs.csv",
        summary="results/hstcp/tables/twoflow_summary.csv",
        series="results/hstcp/tables/twoflow_series.csv",
    log:
        "results/hstcp/logs/run_twoflow.log",
    benchmark:
        "results/hstcp/benchmarks/run_twoflow.tsv"
    resources:
        # Two cases x twoflow.seeds runs one after another: minutes at full scale.
        runtime=lambda wildcards, attempt: 60 * attempt,
        mem_mb=2000,
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.hstcp.twoflow --config {input.config}"
        " --runs {output.runs} --summary {output.summary} --series {output.series}"
        " > {log} 2>&1"


# The readings band (issue 13): DropTail runs at every hstcp.band scenario x pacing x access
# ratio x buffer fraction x seed (results/hstcp/band/...), on the patched ns-2, in one job
# (bufrepro.studies.hstcp.band); runs already current are not run again. band.csv holds each
# reading cell's mean utilisation beside both BDP axes, the model and the band's envelope.


rule run_band:
    input:
        config="results/hstcp/config.yaml",
        template="tcl/hstcp/hstcp.tcl.j2",
        parser="awk/hstcp/hstcp.awk",
        ns2="results/ns2/ns-patched.json",
        # After the grid: the band's unpaced runs at the grid's access ratio are the grid's
        # seed-1 runs under other names (twins), whose metrics they take.
        grid=batch_manifests("hstcp"),
    output:
        runs="results/hstcp/tables/band_runs.csv",
        band="results/hstcp/tables/band.csv",
    log:
        "results/hstcp/logs/run_band.log",
    benchmark:
        "results/hstcp/benchmarks/run_band.tsv"
    # Two runs at a time: after the grid, the job may run beside the two-thread readings jobs
    # only, so a one-thread job would leave a core idle for its minutes.
    threads: 2
    resources:
        # scenarios x 2 x 3 x fractions x seeds runs, two at a time: minutes at full scale.
        runtime=lambda wildcards, attempt: 60 * attempt,
        mem_mb=2000,
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.hstcp.band --config {input.config}"
        " --runs {output.runs} --band {output.band} --threads {threads} > {log} 2>&1"


# ns-2's twins of the scaled scenario's ns-3 cells (hstcp.twin; results/hstcp/twin/...), in one
# job (bufrepro.studies.hstcp.twin), outside the grid: the paper's claims, diff and figures stay
# on its own scenarios; twin_summary is the cross-simulator table's ns-2 side there.


rule run_twin:
    input:
        config="results/hstcp/config.yaml",
        template="tcl/hstcp/hstcp.tcl.j2",
        parser="awk/hstcp/hstcp.awk",
        ns2="results/ns2/ns-patched.json",
    output:
        runs="results/hstcp/tables/twin_runs.csv",
        summary="results/hstcp/tables/twin_summary.csv",
    log:
        "results/hstcp/logs/run_twin.log",
    benchmark:
        "results/hstcp/benchmarks/run_twin.tsv"
    resources:
        # hstcp.twin's cells x seeds, one after another: about 0.5 CPU s a run at 50 Mb/s.
        runtime=lambda wildcards, attempt: 30 * attempt,
        mem_mb=2000,
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.hstcp.twin --config {input.config}"
        " --runs {output.runs} --summary {output.summary} > {log} 2>&1"
