"""The shared files a new study joins: its paper's citation, the site's nav, the home page's row."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import yaml

from bufrepro.scaffold.write import fill

CITATIONS = "published/citations.yaml"
MKDOCS = "mkdocs.yml"
INDEX = "docs/index.md"
FIELDS = ("authors", "title", "venue", "year", "link")
# The title as a YAML string (a colon in it would end the nav entry's key).
NAV = "      - @TITLE_YAML@: studies/@S@.md\n"
ROW = "| [@S@](studies/@S@.md) | @AUTHORS@ (@PAPER@), TEMPLATE | TEMPLATE: what is reproduced |\n"
# The last line of each file's list of studies, after which the new study's line goes.
NAV_LINE = re.compile(r"^\s+- .*: studies/\w+\.md$")
INDEX_LINE = re.compile(r"^\| \[\w+\]\(studies/\w+\.md\) \|")


def next_paper(repo: Path) -> str:
    """The paper id after the highest one the citations file holds ("005" after "004")."""
    ids = re.findall(
        r'^  ["\x27](\d{3})["\x27]:', (repo / CITATIONS).read_text(encoding="utf-8"), re.M
    )
    return f"{max((int(i) for i in ids), default=-1) + 1:03d}"


def citation(words: Mapping[str, str]) -> str:
    """The paper's entry under the citations file's `papers`, its values quoted as YAML needs."""
    entry = {"study": words["S"], **{f: words[f.upper()] for f in FIELDS}}
    text = yaml.safe_dump({words["PAPER"]: entry}, sort_keys=False, allow_unicode=True, width=200)
    return "".join(f"  {line}\n" for line in text.splitlines())


def insert_after_last(text: str, pattern: re.Pattern[str], line: str) -> str:
    """The text with `line` after the last line matching `pattern` (ValueError: none does)."""
    lines = text.splitlines(keepends=True)
    found = [i for i, ln in enumerate(lines) if pattern.match(ln.rstrip("\n"))]
    if not found:
        raise ValueError(f"no line matches {pattern.pattern}")
    lines.insert(found[-1] + 1, line)
    return "".join(lines)


def join_shared(repo: Path, words: Mapping[str, str]) -> list[Path]:
    """Add the study to the citations file, the site's nav and the home page's table."""
    citations = repo / CITATIONS
    text = citations.read_text(encoding="utf-8")
    citations.write_text(text.rstrip("\n") + "\n" + citation(words), encoding="utf-8")
    for name, pattern, line in ((MKDOCS, NAV_LINE, NAV), (INDEX, INDEX_LINE, ROW)):
        path = repo / name
        updated = insert_after_last(path.read_text(encoding="utf-8"), pattern, fill(line, words))
        path.write_text(updated, encoding="utf-8")
    return [citations, repo / MKDOCS, repo / INDEX]
