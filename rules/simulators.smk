# A study on further simulators (config key simulators): each one's runs in batches under
# results/{study}/{backend}/, its runs and summary tables there, and the cross-simulator table
# results/{study}/tables/cross_sim.csv: the study's own backend against each further one.


for _study in STUDIES:
    for _other in OTHER_SIMULATORS[_study]:
        _where = f"results/{_study}/{_other}"

        rule:
            name:
                f"aggregate_metrics_{_study}_{_other}"
            input:
                config=f"results/{_study}/config.yaml",
                manifests=other_batch_manifests(_study, _other),
            output:
                runs=f"{_where}/tables/runs.csv",
                summary=f"{_where}/tables/summary.csv",
                provenance=f"{_where}/provenance.json",
            log:
                f"{_where}/logs/aggregate_metrics.log",
            localrule: True
            params:
                python=sys.executable,
                study=_study,
                tables=lambda w, output: str(Path(output.summary).parent),
            shell:
                "{params.python} -m bufrepro.cli aggregate --config {input.config}"
                " --study {params.study} --tables {params.tables}"
                " --provenance {output.provenance} {input.manifests} > {log} 2>&1"

    if OTHER_SIMULATORS[_study]:

        rule:
            name:
                f"compare_simulators_{_study}"
            input:
                config=f"results/{_study}/config.yaml",
                own=f"results/{_study}/tables/summary.csv",
                reference=[
                    f"results/{_study}/tables/{t}.csv"
                    for t in registry.get(_study).reference_tables
                ],
                diff=f"results/{_study}/tables/diff.csv",
                other=[
                    f"results/{_study}/{b}/tables/summary.csv"
                    for b in OTHER_SIMULATORS[_study]
                ],
            output:
                cross=f"results/{_study}/tables/cross_sim.csv",
                counts=f"results/{_study}/tables/cross_sim_counts.csv",
                published=f"results/{_study}/tables/cross_sim_published.csv",
            log:
                f"results/{_study}/logs/compare_simulators.log",
            localrule: True
            params:
                python=sys.executable,
                study=_study,
                backends=" ".join(f"--backend {b}" for b in OTHER_SIMULATORS[_study]),
                tables=lambda w, output: str(Path(output.cross).parent),
            shell:
                "{params.python} -m bufrepro.cli cross-sim --config {input.config}"
                " --study {params.study} {params.backends}"
                " --tables {params.tables} > {log} 2>&1"
