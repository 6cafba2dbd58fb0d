"""The vegas study's comparison: Tables II-VI diffed, the claims, the notes and Tables V-VI."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit.claims import evaluate_claims
from bufrepro.kit.study import Block, Tables
from bufrepro.studies.vegas.bdp import bdp_diff, bdp_report
from bufrepro.studies.vegas.claims import (
    ALL,
    DIFFED,
    claims_for,
    our_claim_cells,
    paper_claim_cells,
)
from bufrepro.studies.vegas.notes import notes
from bufrepro.studies.vegas.params import SEED_FILE
from bufrepro.studies.vegas.shapes import shape_verdicts, shapes
from bufrepro.studies.vegas.tables import TABLES, reading_of, table_diff


def diff(block: Block, summary: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """The diff of Tables II-IV (against their readings) and V-VI (computed from the config)."""
    sim = pd.concat(
        [table_diff(published, summary, t, reading_of(block, t)) for t in TABLES],
        ignore_index=True,
    )
    return pd.concat([sim, bdp_diff(block, published)], ignore_index=True)


def judged(
    block: Block,
    summary: pd.DataFrame,
    published: pd.DataFrame,
    runs: pd.DataFrame | None = None,
) -> dict[str, pd.DataFrame]:
    """{"claims", "shapes"}: the claims' verdicts on our cells (tests paired by seed, given
    our `runs`) and on the paper's own tables (the same tests, its values as points), in both
    scopes, each with the verdict on its shape beside; our shapes beside the paper's."""
    th = dict(block["claims"])
    ours = our_claim_cells(block, summary, runs)
    paper = paper_claim_cells(block, published)
    made = evaluate_claims(
        ours,
        paper,
        claims_for(block),
        th,
        scope_key="scope",
        seed_files={DIFFED: SEED_FILE, ALL: SEED_FILE},
    )
    table = shapes(ours, paper, th)
    return {"claims": shape_verdicts(made, table, th["holds_frac"]), "shapes": table}


def claims(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame, runs: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The claims' verdicts on our cells and on the paper's own tables, in both scopes."""
    return judged(block, summary, published, runs)["claims"]


def compare(block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
    """diff, claims, shapes, notes and bdp (Tables V-VI as computed beside our Table IV cells)
    from the runs, the summary and the published table."""
    summary, published, runs = tables["summary"], tables["published"], tables["runs"]
    return {
        "diff": diff(block, summary, published),
        **judged(block, summary, published, runs),
        "notes": notes(block, summary, published, runs),
        "bdp": bdp_report(block, summary),
    }
