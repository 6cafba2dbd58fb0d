# bufrepro: reproduce router-buffer-sizing studies with ns-2.
# Usage: snakemake --cores N [--configfile FILE] [--config KEY=VALUE]; see README.md.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"
configfile: "config/dumbbell.yaml"
configfile: "config/hstcp.yaml"
configfile: "config/ramya.yaml"
configfile: "config/vegas.yaml"


report: "report/workflow.rst"


# The image built from envs/Dockerfile (ns-2, gawk, the pinned Python packages); used only when
# Snakemake is asked to deploy software (--software-deployment-method apptainer).
container: "docker://localhost/bufrepro:latest"


include: "rules/common.smk"


wildcard_constraints:
    study="|".join(STUDIES),
    seed=r"\d+",


include: "rules/config.smk"
include: "rules/ns2.smk"
include: "rules/simulate.smk"
include: "rules/analyse.smk"
include: "rules/report.smk"
include: "rules/studies/dumbbell.smk"
include: "rules/studies/hstcp.smk"
include: "rules/studies/ramya.smk"
include: "rules/studies/vegas.smk"


# Light rules (seconds, reading tables) run where Snakemake runs, not as cluster jobs.
localrules:
    all,
    write_config,
    aggregate_metrics,
    compare_published,
    show_diff,
    build_report,
    plot_dumbbell_figures,
    hstcp_twoflow_table,
    hstcp_model,
    compare_hstcp,
    plot_hstcp_figures,
    compare_ramya,
    ramya_queue_series,
    plot_ramya_figures,
    build_ns2,
    compare_vegas,
    vegas_series,
    plot_vegas_figures,


rule all:
    default_target: True
    input:
        final_outputs(),
