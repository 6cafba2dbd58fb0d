# The generic per-study rules' wildcard values and input functions (rules/simulators.smk,
# rules/queues.smk, rules/readings.smk): each rule is one rule with a {study} wildcard (and
# {backend}), constrained to the studies (and simulators) the config selects for it. Each
# keeps its former params and command (the study as params.study): the jobs of a tree made by
# the per-study rules are found current, not rerun.


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
