# The hstcp study's own rules: the tables of its side runs (Hstcp.sides, studies/hstcp/sides.py),
# which run as scopes hstcp/<kind> of the one batch rule (run_batch), with the parser
# variables, kept files and inputs their declarations give. Each rule here reads its runs'
# files once every batch of the kind is made.
#
# - twoflow: the two-flow runs of Figs. 5-6 (results/hstcp/twoflow/<case>/seed<N>/, each
#   keeping its cwnd and queue time series): twoflow_runs and twoflow_summary (compare reads
#   the summary for the fairness claim) and twoflow_series (each case's first seed's series).
# - band: the readings band (issue 13), DropTail runs at every hstcp.band scenario x pacing x
#   access ratio x buffer fraction x seed (results/hstcp/band/...): band.csv holds each reading
#   cell's mean utilisation beside both BDP axes, the model and the band's envelope. A band run
#   at the a-priori pacing and access ratio is a grid run under another name: one reuse key
#   (tests/studies/hstcp/test_hstcp_sides.py), so whichever is made first gives the other its
#   metrics.
# - twin: ns-2's twins of the scaled scenario's ns-3 cells (hstcp.twin; results/hstcp/twin/...),
#   outside the grid: the paper's claims, diff and figures stay on its own scenarios;
#   twin_summary is the cross-simulator table's ns-2 side there.


rule twoflow_tables:
    input:
        config="results/hstcp/config.yaml",
        manifests=side_manifests("hstcp", "twoflow"),
    output:
        runs="results/hstcp/tables/twoflow_runs.csv",
        summary="results/hstcp/tables/twoflow_summary.csv",
        series="results/hstcp/tables/twoflow_series.csv",
    log:
        "results/hstcp/logs/twoflow_tables.log",
    localrule: True
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.hstcp.twoflow --config {input.config}"
        " --runs {output.runs} --summary {output.summary} --series {output.series}"
        " > {log} 2>&1"


rule band_tables:
    input:
        config="results/hstcp/config.yaml",
        manifests=side_manifests("hstcp", "band"),
    output:
        runs="results/hstcp/tables/band_runs.csv",
        band="results/hstcp/tables/band.csv",
    log:
        "results/hstcp/logs/band_tables.log",
    localrule: True
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.hstcp.band --config {input.config}"
        " --runs {output.runs} --band {output.band} > {log} 2>&1"


rule twin_tables:
    input:
        config="results/hstcp/config.yaml",
        manifests=side_manifests("hstcp", "twin"),
    output:
        runs="results/hstcp/tables/twin_runs.csv",
        summary="results/hstcp/tables/twin_summary.csv",
    log:
        "results/hstcp/logs/twin_tables.log",
    localrule: True
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.studies.hstcp.twin --config {input.config}"
        " --runs {output.runs} --summary {output.summary} > {log} 2>&1"
