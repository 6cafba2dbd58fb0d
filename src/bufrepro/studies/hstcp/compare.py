"""Study.compare of hstcp: the model table, the claims' diff and verdicts, model vs simulation."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit.study import Block, Tables
from bufrepro.studies.hstcp.claims import evaluate
from bufrepro.studies.hstcp.diff import diff_claims, model_vs_sim
from bufrepro.studies.hstcp.model.table import as_written, model_table


def compare_tables(
    block: Block,
    summary: pd.DataFrame,
    published: pd.DataFrame,
    model: pd.DataFrame,
    twoflow: pd.DataFrame | None,
) -> dict[str, pd.DataFrame]:
    """diff (every quantitative claim per cell), claims (verdicts) and model_vs_sim."""
    return {
        "diff": diff_claims(published, summary, model, block["claims"]),
        "claims": evaluate(block, summary, model, twoflow),
        "model_vs_sim": model_vs_sim(summary, model),
    }


def compare(block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
    """The model from the config (as model.csv holds it), then every table of compare_tables.

    tables: summary, published (hstcp_claims.csv) and twoflow_summary (the two-flow rule's;
    without it the two-flow half of the fairness claim is left out).
    """
    model = as_written(model_table(block))
    out = compare_tables(
        block, tables["summary"], tables["published"], model, tables.get("twoflow_summary")
    )
    return {**out, "model": model}
