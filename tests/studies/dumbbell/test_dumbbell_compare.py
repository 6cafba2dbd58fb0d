"""compare() on the real published table, with our means set to the paper's own cell means."""

from __future__ import annotations

from typing import Any

import pandas as pd

from bufrepro.kit.diff import coverage
from bufrepro.studies.dumbbell import STUDY
from bufrepro.studies.dumbbell.cells import KEYS, our_cells, paper_cells
from conftest import REPO

# Our metric -> the published column whose cell mean stands in for it.
AS_PUBLISHED = {
    "tcp_delay_ms_mean": "tcp_delay_ms",
    "tcp_throughput_kbps": "tcp_throughput_kbps",
    "tcp_drops_total": "packets_lost",
}


def published() -> pd.DataFrame:
    return pd.read_csv(REPO / "published" / "dumbbell.csv")


def paper_as_summary(pub: pd.DataFrame) -> pd.DataFrame:
    """A summary table whose means are the paper's cell means, with a CI of +-1 around them."""
    cells = pub.groupby(list(KEYS), sort=True)[list(AS_PUBLISHED.values())].mean().reset_index()
    rows = [
        {**{k: cell[k] for k in KEYS}, "metric": m, "n": 10, "mean": cell[c], "sd": 1.0}
        for _, cell in cells.iterrows()
        for m, c in AS_PUBLISHED.items()
    ]
    summary = pd.DataFrame(rows)
    summary["ci_low"] = summary["mean"] - 1
    summary["ci_high"] = summary["mean"] + 1
    return summary


def test_cells_of_the_paper_as_ours_are_the_paper_cells() -> None:
    pub = published()
    ours = our_cells(paper_as_summary(pub))[[*KEYS, "delay", "throughput"]]
    pd.testing.assert_frame_equal(ours, paper_cells(pub), check_dtype=False)


def test_compare_returns_diff_and_claims_covering_every_published_row(
    tiny_cfg: dict[str, Any],
) -> None:
    pub = published()
    summary = paper_as_summary(pub)
    block = tiny_cfg["dumbbell"]
    out = STUDY.compare(block, {"summary": summary, "published": pub, "dumbbell": pub})
    assert set(out) == {"diff", "claims", "consistency", "shapes"}
    cov = coverage(out["diff"])
    assert cov["published_rows"] == 207 and cov["rows_with_counterpart"] == 207
    assert cov["values"] == 3 * 207
    claims = out["claims"]
    # Ours are the paper's own cell means: every claim gets the paper table's verdict.
    assert list(claims["verdict"]) == list(claims["paper_table_verdict"])
    assert set(claims["scope"]) == {"DropTail", "RED"}
    assert claims["seed_file"].str.match(r"^00[01]_[0-9a-f]{16}\.txt$").all()
    # The readings stage scores each reading on diff() alone: the same frame, claims unmade.
    tables = {"summary": summary, "published": pub, "dumbbell": pub}
    pd.testing.assert_frame_equal(STUDY.diff(block, tables), out["diff"])
