# Constants and input functions of the hstcp study's rules (rules/studies/hstcp.smk).
from bufrepro.studies import hstcp as hstcp_study

TWOFLOW = "results/hstcp/twoflow/{case}/seed{seed}"
HSTCP_AWK = str(BASE / "awk" / "hstcp.awk")
HSTCP_KEEP = 1 if CFG["keep_traces"] else 0


def twoflow_record_json(wildcards):
    """params.json record of a two-flow run, from the validated config."""
    record = hstcp_study.twoflow_record(
        CFG["hstcp"], wildcards.case, int(wildcards.seed)
    )
    return json.dumps(record, sort_keys=True)


def twoflow_awk(wildcards):
    """awk/hstcp.awk parameters of a two-flow run."""
    record = hstcp_study.twoflow_record(
        CFG["hstcp"], wildcards.case, int(wildcards.seed)
    )
    return hstcp_study.awk_args(record["params"])


def twoflow_files(name):
    """File `name` of every configured two-flow run."""
    return [
        f"results/hstcp/twoflow/{case}/seed{seed}/{name}"
        for case in hstcp_study.TWOFLOW_CASES
        for seed in CFG["hstcp"]["twoflow"]["seeds"]
    ]


def first_twoflow(case):
    """The time series the figures show: the first seed's."""
    return f"results/hstcp/twoflow/{case}/seed{CFG['hstcp']['twoflow']['seeds'][0]}/timeseries.tsv"
