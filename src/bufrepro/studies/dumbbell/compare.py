"""The dumbbell diff (every published row beside our mean and CI) and the claims' verdicts."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit.claims import evaluate_claims
from bufrepro.kit.diff import diff_published
from bufrepro.kit.study import Block
from bufrepro.studies.dumbbell import delays
from bufrepro.studies.dumbbell.cells import KEYS, our_cells, our_runs, paper_cells
from bufrepro.studies.dumbbell.claims import CLAIMS, SEED_FILES
from bufrepro.studies.dumbbell.shapes import shape_verdicts, shapes


def diff(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame, runs: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Each published value against ours (compare()'s diff alone)."""
    metrics = delays.published_metrics(block)
    if runs is not None:
        summary = delays.with_definition(block, summary, runs)
    return diff_published(published, summary, KEYS, metrics)


def compare(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame, runs: pd.DataFrame | None = None
) -> dict[str, pd.DataFrame]:
    """{"diff", "claims", "shapes"}: each published value against ours, each claim on ours and
    the paper's (with the verdict on its shape beside), and our shapes beside the paper's.

    The published columns read the metrics the block's traffic and delay definition name; a
    derived delay (all packets, RTT) is made from `runs`, each run's own metrics.
    """
    metrics = delays.published_metrics(block)
    if runs is not None:
        summary = delays.with_definition(block, summary, runs)
    table_diff = diff(block, summary, published)
    ours, paper = our_cells(summary, metrics), paper_cells(published)
    thresholds_ = thresholds(block)
    claims = verdicts(block, summary, published, runs)
    table = shapes(ours, paper, thresholds_)
    claims = shape_verdicts(claims, table, thresholds_["holds_frac"])
    return {"diff": table_diff, "claims": claims, "shapes": table}


def verdicts(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame, runs: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Each claim on our cell means and on the paper's (compare()'s claims before the shape
    verdicts); `runs` as for compare()."""
    metrics = delays.published_metrics(block)
    per_seed = None
    if runs is not None:
        summary = delays.with_definition(block, summary, runs)
        derived = metrics["tcp_delay_ms"] in delays.DERIVED
        per_seed = our_runs(delays.derived_runs(block, runs) if derived else runs, metrics)
    return evaluate_claims(
        our_cells(summary, metrics),
        paper_cells(published),
        CLAIMS,
        thresholds(block),
        scope_key="queue",
        seed_files=SEED_FILES,
        runs=per_seed,
    )


def thresholds(block: Block) -> dict[str, float]:
    """The claims' thresholds and tolerances (config key claims), with the bottleneck's packet
    size on the wire (tcp.mss_bytes + 40 B of headers) that a packet time is taken of."""
    mss = float(block.get("tcp", {}).get("mss_bytes", 1460))
    return {**block["claims"], "packet_bytes": mss + 40}
