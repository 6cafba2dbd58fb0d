"""Measured figures in the docs: run cost's current table, which dates each kind, and the
`FIGURE <!-- t: KEY -->` markers that repeat one of its figures on another page.

The conventions (docs/contributing.md, "Docs that cannot drift"):
- `docs/run-cost.md`'s section "Current figures" is one table, one row per kind of measurement;
  its last cell dates the row (`YYYY-MM-DD, commit HASH`, or "commit not recorded"), or the
  row's figure cell says "to be measured";
- a figure in that table followed by `<!-- t: KEY -->` defines KEY (each KEY once); a row that
  no other page repeats needs no KEY;
- the same marker anywhere else repeats that figure: the text before it must be the defined one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from docs_markup import REPO, prose

RUN_COST = REPO / "docs" / "run-cost.md"
SECTION = "## Current figures"
UNIT = r"(?:CPU s|min|ms|s|h|\u00d7|%|MB)"  # \u00d7: the multiplication sign of a ratio
NUMBER = r"\d(?:[\d,.]*\d)?"
FIGURE = rf"{NUMBER}\s?{UNIT}?(?:\s{NUMBER}\s?{UNIT})*"
TIMED = re.compile(rf"({FIGURE})\**\s*<!-- t: ([\w.-]+) -->")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}\b")
COMMIT = re.compile(r"\bcommits? (?:[0-9a-f]{7,40}\b|not recorded)")
UNMEASURED = "to be measured"


@dataclass(frozen=True)
class Row:
    """One kind of measurement: what was measured, the figure cell, the date cell, its line."""

    kind: str
    figure: str
    measured: str
    line: int
    text: str


def norm(figure: str) -> str:
    """A figure as compared: bold marks dropped, spaces collapsed."""
    return " ".join(figure.replace("*", "").split())


def table_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the rows of the current table (header and rule left out)."""
    lines = text.splitlines()
    start = lines.index(SECTION)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    rows = [(i + 1, ln) for i, ln in enumerate(lines[start:end], start) if ln.startswith("|")]
    return [(n, ln) for n, ln in rows[2:]]


def rows(text: str) -> list[Row]:
    """The current table's rows."""
    out = []
    for n, line in table_lines(text):
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        out.append(Row(cells[0], " | ".join(cells[1:-1]), cells[-1], n, line))
    return out


def definitions(text: str) -> dict[str, list[str]]:
    """Each KEY the current table defines, with every figure it is given there."""
    found: dict[str, list[str]] = {}
    for row in rows(text):
        for figure, key in TIMED.findall(row.text):
            found.setdefault(key, []).append(norm(figure))
    return found


def row_problems(row: Row) -> list[str]:
    """What a current row lacks: a date and a commit, or the words that it is to be measured."""
    if UNMEASURED in row.figure:
        return []
    out = []
    if not DATE.search(row.measured):
        out.append(f"line {row.line}: {row.kind!r} has no date (YYYY-MM-DD) first")
    if not COMMIT.search(row.measured):
        out.append(f"line {row.line}: {row.kind!r} names no commit ('commit HASH')")
    return out


def uses(path: Path) -> list[tuple[str, str]]:
    """(figure, KEY) of every marker of a page outside run cost's current table."""
    text = prose(path)
    if path == RUN_COST:
        skip = {ln for _, ln in table_lines(text)}
        text = "\n".join(ln for ln in text.splitlines() if ln not in skip)
    return [(norm(f), k) for f, k in TIMED.findall(text)]


def use_problems(used: list[tuple[str, str]], defined: dict[str, list[str]]) -> list[str]:
    """Each marker whose KEY is not defined, or whose figure is not the defined one."""
    out = []
    for figure, key in used:
        if key not in defined:
            out.append(f"{key}: no current row defines it")
        elif figure != defined[key][0]:
            want = defined[key][0]
            out.append(f"{key}: the page says {figure!r}, run cost's current row {want!r}")
    return out
