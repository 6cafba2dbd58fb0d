# Runs, in batches: one job renders, simulates and parses a batch of runs in one process,
# streaming each run's trace into its parser (bufrepro.pipeline.batch). The one rule of every
# batch, whatever its owner and simulator: its scope is the folder under results/ (<study>,
# <study>/<further simulator>, experiments/<name>; BATCH_SCOPES, rules/common.smk). Each run
# keeps its folder (sim.tcl, params.json, run.json, metrics.tsv); a run whose inputs did not
# change is not run again, so a grown grid reruns only new runs.


rule run_batch:
    input:
        unpack(batch_inputs),
    output:
        manifest="results/{scope}/batches/{batch}.tsv",
    log:
        "results/{scope}/logs/run_batch/{batch}.log",
    benchmark:
        "results/{scope}/benchmarks/run_batch/{batch}.tsv"
    wildcard_constraints:
        scope="|".join(re.escape(s) for s in BATCH_SCOPES) or "(?!)",
        batch=r"((coarse|refine)-)?b[0-9][0-9][0-9][0-9]+",
    threads: batch_threads
    params:
        python=sys.executable,
    shell:
        "{params.python} -m bufrepro.cli run-batch --config {input.config}"
        " --scope {wildcards.scope} --batch {wildcards.batch} --threads {threads}"
        " --manifest {output.manifest} > {log} 2>&1"
