"""Study.compare of hstcp: every table it promises, the model as model.csv holds it."""

from __future__ import annotations

import io

import pandas as pd
from hstcp_tables import GOOD, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp import STUDY
from bufrepro.studies.hstcp.model.table import FLOAT_FORMAT
from conftest import REPO


def _tables(twoflow: bool) -> dict[str, pd.DataFrame]:
    published = pd.read_csv(REPO / "published" / "hstcp_claims.csv")
    summary = pd.concat([summary_table(GOOD, queue=q) for q in ("DropTail", "RED")])
    out = {"summary": summary, "published": published, "hstcp_claims": published}
    if twoflow:
        out["twoflow_summary"] = pd.DataFrame(
            {"case": ["over", "under"], "seeds": [1, 1], "tput_ratio_short_long": [1.1, 3.0]}
        )
    return out


def test_compare_returns_diff_claims_and_its_tables() -> None:
    block = defaults()["hstcp"]
    made = STUDY.compare(block, _tables(twoflow=True))
    assert set(made) == {"diff", "claims", *STUDY.tables}
    model = made["model"]
    # The model as read back from model.csv: writing it again gives the same text.
    text = model.to_csv(index=False, float_format=FLOAT_FORMAT)
    assert pd.read_csv(io.StringIO(text)).to_csv(index=False, float_format=FLOAT_FORMAT) == text
    assert set(model["scenario"]) == {"s1", "s2"} and model["converged"].all()
    vs = made["model_vs_sim"]
    assert len(vs) == len(GOOD) * 2 and vs["diff_utilisation"].notna().all()
    fair = (
        made["claims"]
        .set_index(["claim", "scope"])
        .loc[("buffer_reduces_rtt_unfairness", "DropTail")]
    )
    assert fair["comparisons"] == 2  # the Jain index of s1, and the two flows


def test_compare_without_two_flow_runs_leaves_their_check_out() -> None:
    block = defaults()["hstcp"]
    with_tf = STUDY.compare(block, _tables(twoflow=True))["claims"]
    without = STUDY.compare(block, _tables(twoflow=False))["claims"]
    key = with_tf["claim"] == "buffer_reduces_rtt_unfairness"
    assert (with_tf[key]["comparisons"].sum() - without[key]["comparisons"].sum()) == 1
