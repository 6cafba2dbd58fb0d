# The readings stage's spaces, validated once before any job runs, and its rules' input
# functions (rules/readings.smk has the rules).
import os
import shlex

from bufrepro.pipeline.readings import space as readings_space

SPACE_FILES = {
    s: [
        os.path.relpath(p, BASE)
        for p in readings_space.files(s, str(CFG.get("profile") or ""))
    ]
    for s in readings_space.studies_with_space(STUDIES)
}
READINGS = []


# A reading's runs go through a thread pool as wide as the cores given (Snakemake scales it
# down). The stage's rules are local rules: their thread count is decided where Snakemake runs,
# which a cluster job step would not repeat (srun refused "more processors than permitted").
READINGS_THREADS = all_cores()
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


def readings_inputs(wildcards):
    """A readings stage's inputs: the study's config, space, scenario sources and published
    files (its runs are the study's, made in-process)."""
    study = wildcards.study
    return {
        "config": f"results/{study}/config.yaml",
        "space": SPACE_FILES[study],
        "template": BATCH_INPUTS[study]["template"],
        "parsers": BATCH_INPUTS[study]["parsers"],
        "backend": BATCH_INPUTS[study]["backend"],
        "published": [f"published/{f}" for f in registry.get(study).published_files()],
    }


def space_files(wildcards):
    """The study's space files, merged in order."""
    return SPACE_FILES[wildcards.study]


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


def calibrated_inputs(wildcards):
    """The space and calibration record of a study whose readings are evaluated (else none)."""
    study = wildcards.study
    if study not in READINGS:
        return {"space": [], "calibration": []}
    return {
        "space": SPACE_FILES[study],
        "calibration": f"results/{study}/readings/calibration.json",
    }
