# The generic per-study rules' wildcard values and input functions (rules/simulators.smk,
# rules/queues.smk, rules/readings.smk): each rule is one rule with a {study} wildcard (and
# {backend}), constrained to the studies (and simulators) the config selects for it. Each
# keeps its former params and command (the study as params.study): the jobs of a tree made by
# the per-study rules are found current, not rerun.
from types import SimpleNamespace

import jinja2


def one_of(names):
    """A wildcard constraint matching exactly one of `names` (none: matches nothing)."""
    return "|".join(re.escape(n) for n in names) or "(?!)"


# The studies run on a further simulator, and those simulators.
CROSS_STUDIES = [s for s in STUDIES if OTHER_SIMULATORS[s]]
FURTHER_SIMULATORS = sorted({b for s in CROSS_STUDIES for b in OTHER_SIMULATORS[s]})
# The studies whose further simulator runs today's queues.
QUEUE_STUDIES = [s for s in STUDIES if QUEUE_BACKEND[s]]


def study_config(wildcards):
    """The study's own config (results/<study>/config.yaml)."""
    return f"results/{wildcards.study}/config.yaml"


def study_caption(study, name):
    """report/captions/<study>/<name>.rst rendered as Snakemake's report renders a caption (Jinja
    over snakemake.config). A wildcard rule's report() names one caption file, whatever the
    study: report/captions/study.rst, which shows this text, the job's params.caption.
    """
    text = (BASE / "report" / "captions" / study / f"{name}.rst").read_text(
        encoding="utf-8"
    )
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    return env.from_string(text).render(snakemake=SimpleNamespace(config=config))
