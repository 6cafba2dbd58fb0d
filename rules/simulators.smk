# A study on further simulators (config key simulators): each one's runs in batches under
# results/{study}/{backend}/, its runs and summary tables there, and the cross-simulator table
# results/{study}/tables/cross_sim.csv: the study's own backend against each further one.


rule aggregate_metrics_further:
    input:
        config=study_config,
        manifests=lambda w: other_batch_manifests(w.study, w.backend),
    output:
        runs="results/{study}/{backend}/tables/runs.csv",
        summary="results/{study}/{backend}/tables/summary.csv",
        precision="results/{study}/{backend}/tables/precision.csv",
        provenance="results/{study}/{backend}/provenance.json",
    log:
        "results/{study}/{backend}/logs/aggregate_metrics.log",
    wildcard_constraints:
        study=one_of(CROSS_STUDIES),
        backend=one_of(FURTHER_SIMULATORS),
    localrule: True
    params:
        python=sys.executable,
        study=lambda w: w.study,
        tables=lambda w, output: str(Path(output.summary).parent),
    shell:
        "{params.python} -m bufrepro.cli aggregate --config {input.config}"
        " --study {params.study} --tables {params.tables}"
        " --provenance {output.provenance} {input.manifests} > {log} 2>&1"


rule compare_simulators:
    input:
        config=study_config,
        own="results/{study}/tables/summary.csv",
        reference=lambda w: [
            f"results/{w.study}/tables/{t}.csv"
            for t in registry.get(w.study).reference_tables
        ],
        diff="results/{study}/tables/diff.csv",
        other=lambda w: [
            f"results/{w.study}/{b}/tables/summary.csv"
            for b in OTHER_SIMULATORS[w.study]
        ],
    output:
        cross="results/{study}/tables/cross_sim.csv",
        counts="results/{study}/tables/cross_sim_counts.csv",
        published="results/{study}/tables/cross_sim_published.csv",
    log:
        "results/{study}/logs/compare_simulators.log",
    wildcard_constraints:
        study=one_of(CROSS_STUDIES),
    localrule: True
    params:
        python=sys.executable,
        study=lambda w: w.study,
        backends=lambda w: " ".join(f"--backend {b}" for b in OTHER_SIMULATORS[w.study]),
        tables=lambda w, output: str(Path(output.cross).parent),
    shell:
        "{params.python} -m bufrepro.cli cross-sim --config {input.config}"
        " --study {params.study} {params.backends}"
        " --tables {params.tables} > {log} 2>&1"
