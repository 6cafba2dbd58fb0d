"""User pages name no commit hash outside the quoted-run markers: history lives in CHANGELOG.md.

A commit hash is 7 to 40 hex digits holding a letter and a digit, standing alone; a line
carrying `<!-- quotes: PROFILE -->` names the reproduction it quotes and may name its commit, and
the last cell of a row of run cost's current table ("measured") names the commit its figures were
measured on (figures_markup.py). A
sha256 file digest (64 hex digits) is not a commit hash. A number of digits only (a DOI or
IEEE document number) is not taken for one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docs_markup import REPO, RUN_ELSEWHERE, rel
from figures_markup import RUN_COST, rows

HASH = re.compile(
    r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z])"
)
QUOTES = "<!-- quotes:"


def user_pages() -> list[Path]:
    """README.md, docs/**/*.md, profiles/slurm/README.md and envs/README.md."""
    return [
        REPO / "README.md",
        *sorted((REPO / "docs").rglob("*.md")),
        *(REPO / p for p in RUN_ELSEWHERE),
    ]


def hashes(text: str) -> list[str]:
    """'line N: HASH' for each commit hash on a line without a quoted-run marker."""
    return [
        f"line {n}: {h}"
        for n, line in enumerate(text.splitlines(), 1)
        if QUOTES not in line
        for h in HASH.findall(line)
    ]


def without_measured_cells(page: Path, text: str) -> str:
    """The page with the "measured" cells of run cost's current table emptied."""
    if page != RUN_COST:
        return text
    for row in rows(text):
        text = text.replace(row.text, row.text.replace(row.measured, ""))
    return text


@pytest.mark.parametrize("page", user_pages(), ids=rel)
def test_a_user_page_names_no_commit_hash(page: Path) -> None:
    found = hashes(without_measured_cells(page, page.read_text(encoding="utf-8")))
    assert not found, (
        f"{rel(page)} names commits outside a quoted-run line (move to CHANGELOG.md): {found}"
    )


def test_run_costs_figures_may_name_their_commit_only_in_the_measured_cell() -> None:
    text = RUN_COST.read_text(encoding="utf-8")
    row = next(r for r in rows(text) if hashes(r.measured))
    assert hashes(without_measured_cells(RUN_COST, text)) == []
    moved = row.text.replace(row.figure, row.figure + " (at 0c96313)")
    assert hashes(without_measured_cells(RUN_COST, text.replace(row.text, moved)))


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("measured at commit 0c96313, 2 cores", ["line 1: 0c96313"]),
        ("(85f6c41)", ["line 1: 85f6c41"]),
        (
            "a full hash 8a237b1e0c963130c96313" + "0" * 18 + " here",
            ["line 1: 8a237b1e0c963130c96313" + "0" * 18],
        ),
        ("quotes the run of commit b79cc50 <!-- quotes: default -->", []),
        ("sha256 " + "ab12" * 16, []),
        ("IEEE document 1378255, decade, effaced", []),
    ],
    ids=["short", "parenthesised", "full", "quoted-run", "sha256", "not-a-hash"],
)
def test_the_check(line: str, found: list[str]) -> None:
    assert hashes(line) == found
