# bufrepro: reproduce router-buffer-sizing studies with ns-2.
# Usage: snakemake --cores N [--configfile FILE] [--config KEY=VALUE]; see README.md.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


include: "rules/common.smk"
include: "rules/simulate.smk"
include: "rules/analyse.smk"
include: "rules/report.smk"


rule all:
    input:
        final_outputs(),
    default_target: True
