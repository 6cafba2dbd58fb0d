"""A measured figure (a time, a CPU total, a ratio) is dated in one place, run cost's current
table, one row per kind; another page repeats it only as `FIGURE <!-- t: KEY -->`, and the
figure must be the current row's (figures_markup.py has the markup)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docs_markup import pages, rel
from figures_markup import RUN_COST, definitions, row_problems, rows, use_problems, uses

CURRENT = RUN_COST.read_text(encoding="utf-8")


def test_the_current_table_dates_every_row() -> None:
    found = rows(CURRENT)
    assert len(found) >= 10, "run cost's current table is missing or cut short"
    assert [p for r in found for p in row_problems(r)] == []


def test_one_row_per_kind_and_each_key_defined_once() -> None:
    kinds = [r.kind for r in rows(CURRENT)]
    assert len(kinds) == len(set(kinds)), sorted(k for k in kinds if kinds.count(k) > 1)
    twice = {k: v for k, v in definitions(CURRENT).items() if len(v) > 1}
    assert twice == {}


def test_the_readme_repeats_its_times_by_marker() -> None:
    used = {k for page in pages() for _, k in uses(page)}
    assert {"quick.wall", "repro.wall", "tests.wall", "advise.wall"} <= used, used


@pytest.mark.parametrize("page", pages(), ids=rel)
def test_a_repeated_figure_is_the_current_one(page: Path) -> None:
    assert use_problems(uses(page), definitions(CURRENT)) == []


def test_a_doctored_figure_fails() -> None:
    defined = definitions(CURRENT)
    key, figures = next(iter(defined.items()))
    assert use_problems([(figures[0], key)], defined) == []
    assert use_problems([("1 min 2 s", key)], defined) != []
    assert use_problems([(figures[0], "no.such.kind")], defined) != []
    table = "## Current figures\n\n|a|b|c|\n|-|-|-|\n| kind | **3 s** <!-- t: x --> | soon |"
    undated = rows(table)
    assert len(row_problems(undated[0])) == 2
