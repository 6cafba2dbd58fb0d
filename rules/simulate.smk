# Runs, in batches: one job renders, simulates and parses runs_per_job runs in one process,
# streaming each run's trace into its parser (bufrepro.pipeline.batch). Each run keeps its
# folder (sim.tcl, params.json, run.json, metrics.tsv); a run whose inputs did not change is
# not run again, so a grown grid reruns only new runs.


rule run_batch:
    input:
        unpack(batch_inputs),
    output:
        manifest="results/{study}/batches/{batch}.tsv",
    log:
        "results/{study}/logs/run_batch/{batch}.log",
    benchmark:
        "results/{study}/benchmarks/run_batch/{batch}.tsv"
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli run-batch --config {input.config}"
        " --study {wildcards.study} --batch {wildcards.batch} --manifest {output.manifest}"
        " > {log} 2>&1"
