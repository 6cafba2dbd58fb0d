"""published/dumbbell.csv: row numbers run 1..n per (seed, table, block, side); queue per paper."""

from __future__ import annotations

import csv

from bufrepro.studies.dumbbell.claims import SEED_FILES
from conftest import REPO


def test_rows_numbered_and_queue_matches_paper() -> None:
    with (REPO / "published" / "dumbbell.csv").open(newline="", encoding="utf-8") as fh:
        recs = list(csv.DictReader(fh))
    errors: list[str] = []
    last: dict[tuple[str, str, str, str], int] = {}
    for r in recs:
        k = (r["seed_file"], r["table"], r["block"], r["side"])
        if int(r["row"]) != last.get(k, 0) + 1:
            errors.append(f"dumbbell.csv: row numbering broken at {k} row {r['row']}")
        last[k] = int(r["row"])
        want = "DropTail" if r["seed_file"] == SEED_FILES["DropTail"] else "RED"
        if r["queue"] != want:
            errors.append(f"dumbbell.csv: queue {r['queue']} for {r['seed_file']}")
    assert recs and errors == []
