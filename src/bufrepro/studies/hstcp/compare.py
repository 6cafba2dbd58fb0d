"""Study.compare of hstcp: the model table, the claims' diff and verdicts, model vs simulation."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import steady
from bufrepro.kit.study import Block, Tables
from bufrepro.studies.hstcp.claims import evaluate
from bufrepro.studies.hstcp.diff import diff_claims, model_vs_sim, with_flows_axis
from bufrepro.studies.hstcp.model.table import as_written, model_table
from bufrepro.studies.hstcp.notes import notes
from bufrepro.studies.hstcp.params import KEYS, axis_ratios
from bufrepro.studies.hstcp.shapes import shape_verdicts, shapes


def compare_tables(
    block: Block,
    summary: pd.DataFrame,
    published: pd.DataFrame,
    model: pd.DataFrame,
    twoflow: pd.DataFrame | None,
    runs: pd.DataFrame | None = None,
) -> dict[str, pd.DataFrame]:
    """diff (every quantitative claim per cell), claims (verdicts, with the shape verdicts),
    model_vs_sim and shapes (the simulated curve's shapes beside the model's)."""
    ratios = axis_ratios(block)
    table = shapes(block, summary, model)
    claims = evaluate(block, summary, model, twoflow, runs)
    out = {
        "diff": _diff(block, published, summary, model, runs),
        "claims": shape_verdicts(claims, table, block["claims"]["holds_frac"]),
        "model_vs_sim": with_flows_axis(model_vs_sim(summary, model), ratios),
        "shapes": table,
    }
    # Each cell's judged window and transient (the runs record them: awk/hstcp/hstcp.awk).
    recorded = runs is not None and steady.recorded(runs)
    cells = steady.cells(runs if recorded else None, KEYS, block["measure"]["min_loss_epochs"])
    out["steady"] = cells
    if recorded:
        words = steady.by_scope(cells, "queue", ("scenario", "buffer_frac"))
        out["claims"] = out["claims"].assign(steady=out["claims"]["scope"].map(words))
    return out


def claims(block: Block, tables: Tables) -> pd.DataFrame:
    """compare()'s claims alone (without the shape verdicts), against the model as written;
    without tables["twoflow_summary"] the two-flow half of the fairness claim is left out."""
    model = as_written(model_table(block))
    return evaluate(
        block, tables["summary"], model, tables.get("twoflow_summary"), tables.get("runs")
    )


def diff(block: Block, tables: Tables) -> pd.DataFrame:
    """compare()'s diff alone: every quantitative claim per cell, against the model as written."""
    model = as_written(model_table(block))
    return _diff(block, tables["published"], tables["summary"], model, tables.get("runs"))


def _diff(
    block: Block,
    published: pd.DataFrame,
    summary: pd.DataFrame,
    model: pd.DataFrame,
    runs: pd.DataFrame | None,
) -> pd.DataFrame:
    """The diff, each cell's steady-state words beside it where the runs record them."""
    out = with_flows_axis(
        diff_claims(published, summary, model, block["claims"]), axis_ratios(block)
    )
    if runs is None or not steady.recorded(runs):
        return out
    cells = steady.cells(runs, KEYS, block["measure"]["min_loss_epochs"])
    return out.merge(steady.flags(cells, KEYS), on=list(KEYS), how="left")


def compare(block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
    """The model from the config (as model.csv holds it), then every table of compare_tables.

    tables: summary, published (hstcp_claims.csv), twoflow_summary (the two-flow rule's;
    without it the two-flow half of the fairness claim is left out) and band (the readings
    band's rule; the notes report it).
    """
    model = as_written(model_table(block))
    out = compare_tables(
        block,
        tables["summary"],
        tables["published"],
        model,
        tables.get("twoflow_summary"),
        tables.get("runs"),
    )
    return {**out, "model": model, "notes": notes(block, tables.get("band"), out["claims"])}
