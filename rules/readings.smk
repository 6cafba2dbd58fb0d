# The readings stage, per study that declares a space (config/readings/<S>.yaml): Morris
# screening of every unstated parameter, a Latin-hypercube calibration with a held-out check,
# the confirmation of its best readings and the a-priori one at more seeds, and the verdict
# from the confirmed runs (bufrepro.pipeline.readings). Each reading's runs live under
# results/<S>/readings/runs/<digest>/ and are skipped when current, so identical readings share
# their runs across stages and re-runs. Spaces are validated here, before any job runs.
# The stage runs where the configured grid covers the space's cells (a narrowed grid, as in the
# tests, leaves it out, with a note).
import os
import shlex

from snakemake.exceptions import WorkflowError

from bufrepro.pipeline.readings import space as readings_space

SPACE_FILES = {
    s: [
        os.path.relpath(p, BASE)
        for p in readings_space.files(s, str(CFG.get("profile") or ""))
    ]
    for s in readings_space.studies_with_space(STUDIES)
}
READINGS = []


def _all_cores():
    """Every core Snakemake was given (1 where it was given none: --report, --lint)."""
    try:
        return int(workflow.cores or 1)
    except WorkflowError:
        return 1


# A reading's runs go through a thread pool as wide as the cores given (Snakemake scales it
# down). The stage's rules are local rules: their thread count is decided where Snakemake runs,
# which a cluster job step would not repeat (srun refused "more processors than permitted").
READINGS_THREADS = _all_cores()
# Each declared space, loaded and validated once, before any job runs.
SPACES = {
    s: readings_space.load(CFG, s, [Path(p) for p in files])
    for s, files in SPACE_FILES.items()
}
# Where each space's cells leave the configured grid (empty: the grid covers them).
OFF_GRID = {s: readings_space.off_grid(CFG, sp) for s, sp in SPACES.items()}
for _study, _space in SPACES.items():
    if not _space["evaluate"]:
        print(
            f"readings of {_study}: space declared and validated, not evaluated (evaluate: false)",
            file=sys.stderr,
        )
    elif OFF_GRID[_study]:
        print(
            f"readings of {_study} left out: cells {OFF_GRID[_study]} are not in the configured grid",
            file=sys.stderr,
        )
    else:
        READINGS.append(_study)


def readings_outputs():
    """The readings stage's outputs of every study that declares a space."""
    out = []
    for study in READINGS:
        out += [
            f"results/{study}/tables/sensitivity.csv",
            f"results/{study}/tables/calibration.csv",
            f"results/{study}/tables/diff_calibrated.csv",
            f"results/{study}/tables/confirmation.csv",
            f"results/{study}/tables/diff_confirmed.csv",
            f"results/{study}/tables/verdict.json",
            f"results/{study}/figures/sensitivity.png",
        ]
    return out


for _study in READINGS:
    _runs_inputs = {
        "config": f"results/{_study}/config.yaml",
        "space": SPACE_FILES[_study],
        "template": BATCH_INPUTS[_study]["template"],
        "parsers": BATCH_INPUTS[_study]["parsers"],
        "backend": BATCH_INPUTS[_study]["backend"],
        "published": [f"published/{f}" for f in registry.get(_study).published_files()],
    }

    rule:
        name:
            f"screen_sensitivity_{_study}"
        input:
            **_runs_inputs,
        output:
            table=f"results/{_study}/tables/sensitivity.csv",
            figure=f"results/{_study}/figures/sensitivity.png",
            state=f"results/{_study}/readings/sensitivity.json",
        log:
            f"results/{_study}/logs/screen_sensitivity.log",
        localrule: True
        threads: READINGS_THREADS
        params:
            python=sys.executable,
            study=_study,
        shell:
            "{params.python} -m bufrepro.cli readings-sensitivity --config {input.config}"
            " --study {params.study} --space {input.space} --threads {threads}"
            " --table {output.table} --figure {output.figure} --state {output.state}"
            " > {log} 2>&1"

    # After the screening (its input): the two stages may share run folders, and one job at a
    # time writes them.
    rule:
        name:
            f"calibrate_readings_{_study}"
        input:
            **_runs_inputs,
            after=f"results/{_study}/readings/sensitivity.json",
        output:
            table=f"results/{_study}/tables/calibration.csv",
            diff=f"results/{_study}/tables/diff_calibrated.csv",
            state=f"results/{_study}/readings/calibration.json",
        log:
            f"results/{_study}/logs/calibrate_readings.log",
        localrule: True
        threads: READINGS_THREADS
        params:
            python=sys.executable,
            study=_study,
        shell:
            "{params.python} -m bufrepro.cli readings-calibrate --config {input.config}"
            " --study {params.study} --space {input.space} --threads {threads}"
            " --table {output.table} --diff {output.diff} --state {output.state}"
            " > {log} 2>&1"

    # The a-priori reading and calibration's best ones at the confirmation's seeds: the
    # verdict's runs (after calibration, which chooses them; one job at a time writes runs).
    rule:
        name:
            f"confirm_readings_{_study}"
        input:
            **_runs_inputs,
            calibration=f"results/{_study}/tables/calibration.csv",
        output:
            table=f"results/{_study}/tables/confirmation.csv",
            diff=f"results/{_study}/tables/diff_confirmed.csv",
            state=f"results/{_study}/readings/confirmation.json",
        log:
            f"results/{_study}/logs/confirm_readings.log",
        localrule: True
        threads: READINGS_THREADS
        params:
            python=sys.executable,
            study=_study,
        shell:
            "{params.python} -m bufrepro.cli readings-confirm --config {input.config}"
            " --study {params.study} --space {input.space} --threads {threads}"
            " --calibration {input.calibration} --table {output.table}"
            " --diff {output.diff} --state {output.state} > {log} 2>&1"

    rule:
        name:
            f"judge_readings_{_study}"
        input:
            config=f"results/{_study}/config.yaml",
            space=SPACE_FILES[_study],
            sensitivity=f"results/{_study}/tables/sensitivity.csv",
            sensitivity_state=f"results/{_study}/readings/sensitivity.json",
            calibration_state=f"results/{_study}/readings/calibration.json",
            confirmation_state=f"results/{_study}/readings/confirmation.json",
        output:
            verdict=f"results/{_study}/tables/verdict.json",
        log:
            f"results/{_study}/logs/judge_readings.log",
        localrule: True
        params:
            python=sys.executable,
            study=_study,
        shell:
            "{params.python} -m bufrepro.cli readings-verdict --config {input.config}"
            " --study {params.study} --space {input.space} --sensitivity {input.sensitivity}"
            " --sensitivity-state {input.sensitivity_state}"
            " --state {input.calibration_state}"
            " --confirmation-state {input.confirmation_state}"
            " --out {output.verdict} > {log} 2>&1"


# The claims judged on the best calibrated reading (marked fitted, beside its distances), for
# every selected study: a study whose readings are not evaluated gets one row saying why.


def claims_calibrated_reason(study):
    """Why a study has no calibrated claims ('' when its readings are evaluated)."""
    if study in READINGS:
        return ""
    if study not in SPACE_FILES:
        return f"no space of readings declared (config/readings/{study}.yaml)"
    if not SPACES[study]["evaluate"]:
        return f"readings declared but not evaluated (evaluate: false in config/readings/{study}.yaml)"
    return f"readings left out: cells {OFF_GRID[study]} are not in the configured grid"


CLAIMS_CALIBRATED_REASONS = {s: claims_calibrated_reason(s) for s in STUDIES}


def claims_calibrated_outputs():
    """The calibrated claims table of every selected study."""
    return [f"results/{s}/tables/claims_calibrated.csv" for s in STUDIES]


for _study in STUDIES:
    _evaluated = _study in READINGS

    rule:
        name:
            f"judge_claims_calibrated_{_study}"
        input:
            config=f"results/{_study}/config.yaml",
            space=SPACE_FILES[_study] if _evaluated else [],
            calibration=(
                f"results/{_study}/readings/calibration.json" if _evaluated else []
            ),
        output:
            claims=f"results/{_study}/tables/claims_calibrated.csv",
        log:
            f"results/{_study}/logs/judge_claims_calibrated.log",
        localrule: True
        params:
            python=sys.executable,
            study=_study,
            state=(
                f"--state results/{_study}/readings/calibration.json"
                if _evaluated
                else ""
            ),
            reason=shlex.quote(CLAIMS_CALIBRATED_REASONS[_study]),
        shell:
            "{params.python} -m bufrepro.cli claims-calibrated --config {input.config}"
            " --study {params.study} --space {input.space} {params.state}"
            " --reason {params.reason} --out {output.claims} > {log} 2>&1"
