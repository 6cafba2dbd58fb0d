# The readings stage, per study that declares a space (config/readings/<S>.yaml): Morris
# screening of every unstated parameter, a Latin-hypercube calibration with a held-out check,
# the confirmation of its best readings and the a-priori one at more seeds, and the verdict
# from the confirmed runs (bufrepro.pipeline.readings). Each reading's runs live under
# results/<S>/readings/runs/<digest>/ and are skipped when current, so identical readings share
# their runs across stages and re-runs. Spaces are validated before any job runs
# (rules/readings_common.smk). The stage runs where the configured grid covers the space's
# cells (a narrowed grid, as in the tests, leaves it out, with a note).


rule screen_sensitivity:
    input:
        unpack(readings_inputs),
    output:
        table="results/{study}/tables/sensitivity.csv",
        figure="results/{study}/figures/sensitivity.png",
        state="results/{study}/readings/sensitivity.json",
    log:
        "results/{study}/logs/screen_sensitivity.log",
    wildcard_constraints:
        study=one_of(READINGS),
    localrule: True
    threads: READINGS_THREADS
    params:
        python=sys.executable,
        study=lambda w: w.study,
    shell:
        "{params.python} -m bufrepro.cli readings-sensitivity --config {input.config}"
        " --study {params.study} --space {input.space} --threads {threads}"
        " --table {output.table} --figure {output.figure} --state {output.state}"
        " > {log} 2>&1"


# After the screening (its input): the two stages may share run folders, and one job at a
# time writes them.
rule calibrate_readings:
    input:
        unpack(readings_inputs),
        after="results/{study}/readings/sensitivity.json",
    output:
        table="results/{study}/tables/calibration.csv",
        diff="results/{study}/tables/diff_calibrated.csv",
        state="results/{study}/readings/calibration.json",
    log:
        "results/{study}/logs/calibrate_readings.log",
    wildcard_constraints:
        study=one_of(READINGS),
    localrule: True
    threads: READINGS_THREADS
    params:
        python=sys.executable,
        study=lambda w: w.study,
    shell:
        "{params.python} -m bufrepro.cli readings-calibrate --config {input.config}"
        " --study {params.study} --space {input.space} --threads {threads}"
        " --table {output.table} --diff {output.diff} --state {output.state}"
        " > {log} 2>&1"


# The a-priori reading and calibration's best ones at the confirmation's seeds: the
# verdict's runs (after calibration, which chooses them; one job at a time writes runs).
rule confirm_readings:
    input:
        unpack(readings_inputs),
        calibration="results/{study}/tables/calibration.csv",
    output:
        table="results/{study}/tables/confirmation.csv",
        diff="results/{study}/tables/diff_confirmed.csv",
        state="results/{study}/readings/confirmation.json",
    log:
        "results/{study}/logs/confirm_readings.log",
    wildcard_constraints:
        study=one_of(READINGS),
    localrule: True
    threads: READINGS_THREADS
    params:
        python=sys.executable,
        study=lambda w: w.study,
    shell:
        "{params.python} -m bufrepro.cli readings-confirm --config {input.config}"
        " --study {params.study} --space {input.space} --threads {threads}"
        " --calibration {input.calibration} --table {output.table}"
        " --diff {output.diff} --state {output.state} > {log} 2>&1"


rule judge_readings:
    input:
        config=study_config,
        space=space_files,
        sensitivity="results/{study}/tables/sensitivity.csv",
        sensitivity_state="results/{study}/readings/sensitivity.json",
        calibration_state="results/{study}/readings/calibration.json",
        confirmation_state="results/{study}/readings/confirmation.json",
    output:
        verdict="results/{study}/tables/verdict.json",
    log:
        "results/{study}/logs/judge_readings.log",
    wildcard_constraints:
        study=one_of(READINGS),
    localrule: True
    params:
        python=sys.executable,
        study=lambda w: w.study,
    shell:
        "{params.python} -m bufrepro.cli readings-verdict --config {input.config}"
        " --study {params.study} --space {input.space} --sensitivity {input.sensitivity}"
        " --sensitivity-state {input.sensitivity_state}"
        " --state {input.calibration_state}"
        " --confirmation-state {input.confirmation_state}"
        " --out {output.verdict} > {log} 2>&1"


# The claims judged on the best calibrated reading (marked fitted, beside its distances), for
# every selected study: a study whose readings are not evaluated gets one row saying why.
rule judge_claims_calibrated:
    input:
        unpack(calibrated_inputs),
        config=study_config,
    output:
        claims="results/{study}/tables/claims_calibrated.csv",
    log:
        "results/{study}/logs/judge_claims_calibrated.log",
    localrule: True
    params:
        python=sys.executable,
        study=lambda w: w.study,
        state=lambda w: (
            f"--state results/{w.study}/readings/calibration.json"
            if w.study in READINGS
            else ""
        ),
        reason=lambda w: shlex.quote(CLAIMS_CALIBRATED_REASONS[w.study]),
    shell:
        "{params.python} -m bufrepro.cli claims-calibrated --config {input.config}"
        " --study {params.study} --space {input.space} {params.state}"
        " --reason {params.reason} --out {output.claims} > {log} 2>&1"
