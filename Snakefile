# bufrepro: reproduce router-buffer-sizing studies with ns-2.
# Usage: snakemake --cores N [--configfile FILE] [--config KEY=VALUE]; see README.md.
# Studies and simulator backends are found, not listed: rules/common.smk reads every study
# package's config, and the rule files of studies and backends are included below.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


include: "rules/common.smk"


report: "report/workflow.rst"


# The image built from envs/Dockerfile (ns-2, gawk, the pinned Python packages); used only when
# Snakemake is asked to deploy software (--software-deployment-method apptainer).
container: "docker://localhost/bufrepro:latest"


wildcard_constraints:
    study="|".join(STUDIES) or "(?!)",  # no study selected: matches nothing
    batch=r"b[0-9][0-9][0-9][0-9]+",
    experiment=r"[a-z0-9][a-z0-9_.-]*",


include: "rules/config.smk"
include: "rules/wildcards.smk"
include: "rules/simulate.smk"
include: "rules/simulators.smk"
include: "rules/analyse.smk"
include: "rules/queues.smk"
include: "rules/readings_common.smk"
include: "rules/readings.smk"
include: "rules/report.smk"
include: "rules/experiments_common.smk"
include: "rules/experiments.smk"


for _rules in RULE_FILES:

    include: _rules


# A local run drops the command line's submission-rate limit: its re-evaluation timers pile up
# with every finished job and cost the scheduler CPU that the runs need (pipeline/scheduling.py).
onstart:
    if scheduling.drop_local_rate_limit(workflow):
        print(scheduling.DROPPED, file=sys.stderr)


# Say what this run plans before anything starts (dry runs included), and warn when that is more
# than the config files and --config named (a study's block given, `studies` left at its default).
if workflow.is_main_process:
    for _line in announce.plan_lines(
        STUDIES,
        {s: sum(len(b) for b in SCOPE_BATCHES[s]) for s in STUDIES},
        EXPERIMENTS,
        workflow.config_settings.overwrite_config,
        registry.names(),
    ):
        print(_line, file=sys.stderr)


rule all:
    default_target: True
    input:
        final_outputs(),
        readings_outputs(),
        experiment_outputs(),
    localrule: True
