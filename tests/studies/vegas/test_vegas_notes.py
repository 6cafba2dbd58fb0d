"""The vegas notes: the paper's side of the seed spread is read from published/vegas.csv."""

from __future__ import annotations

import re

import pandas as pd

from bufrepro.studies.vegas.notes import definition_notes, paper_groups
from conftest import REPO


def test_paper_groups_read_from_published() -> None:
    """The notes' "paper" side of the seed spread comes from published/vegas.csv, not from code."""
    published = pd.read_csv(REPO / "published" / "vegas.csv")
    text = paper_groups(published)
    assert "lower 142-248 kb/s at 40, 50, 70, 90 ms" in text
    assert "upper 777-848 kb/s at 60, 80, 100, 110, 120, 130, 140, 150 ms" in text
    changed = published.copy()
    row = (changed["table"] == "Table IV") & (changed["metric"] == "network_throughput")
    changed.loc[row & (changed["rtt_ms"] == 60), "value"] = 150.0
    assert "lower 142-248 kb/s at 40, 50, 60, 70, 90 ms" in paper_groups(changed)


def test_notes_name_only_awk_files_that_exist() -> None:
    """The parsers the notes name are the ones the study runs (awk/vegas/vegas.awk), not the
    old per-metric files."""
    text = " ".join(r["ours"] + r["note"] for r in definition_notes())
    named = set(re.findall(r"awk/[a-z_/]+\.awk", text))
    assert named == {"awk/vegas/vegas.awk"}
    for path in named:
        assert (REPO / path).is_file(), path
