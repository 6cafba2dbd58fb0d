"""Each study page cites its papers in full (published/citations.yaml), and published/README.md
names no path outside the repository."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from docs_markup import REPO

CITATIONS = REPO / "published" / "citations.yaml"
FIELDS = ("authors", "title", "venue", "year", "link")
# A path outside the repository: an absolute path or a home folder, in inline code or bare.
OUTSIDE = re.compile(r"(?<![\w.:/])(?:/(?:work|home|tmp|usr|mnt|srv|opt|root|var)/|~/)")


def papers() -> dict[str, dict[str, Any]]:
    """The citations file's papers by id."""
    return dict(yaml.safe_load(CITATIONS.read_text(encoding="utf-8"))["papers"])


def citation_section(page: str) -> str:
    """The text of a page's '## Citation' section ('' when it has none)."""
    m = re.search(r"^## Citation\n(.*?)(?=^## |\Z)", page, flags=re.M | re.S)
    return m.group(1) if m else ""


def gaps(page: str, entry: dict[str, Any]) -> list[str]:
    """The fields of a paper's entry its page's Citation section does not quote."""
    section = " ".join(citation_section(page).split())
    return [f for f in FIELDS if " ".join(str(entry[f]).split()) not in section]


def outside_paths(text: str) -> list[str]:
    """The places a text names a path outside the repository."""
    return [text[m.start() : m.start() + 40] for m in OUTSIDE.finditer(text)]


@pytest.mark.parametrize("paper", sorted(papers()))
def test_each_study_page_cites_its_papers_in_full(paper: str) -> None:
    entry = papers()[paper]
    page = (REPO / "docs" / "studies" / f"{entry['study']}.md").read_text(encoding="utf-8")
    assert gaps(page, entry) == [], (paper, entry["study"])


def test_every_study_has_a_cited_paper() -> None:
    cited = {e["study"] for e in papers().values()}
    assert cited == {p.stem for p in (REPO / "docs" / "studies").glob("*.md")}


def test_a_page_without_the_venue_is_caught() -> None:
    entry = papers()["003"]
    page = (REPO / "docs" / "studies" / "hstcp.md").read_text(encoding="utf-8")
    assert gaps(page.replace(entry["venue"], "a conference"), entry) == ["venue"]
    assert gaps(page.replace("## Citation", "## Sources"), entry) == list(FIELDS)


def test_published_readme_names_no_path_outside_the_repository() -> None:
    text = (REPO / "published" / "README.md").read_text(encoding="utf-8")
    assert outside_paths(text) == []


def test_an_outside_path_is_caught() -> None:
    assert outside_paths("the papers (`/work/shared/seeds/`) and ~/papers") != []
    assert len(outside_paths("see `/work/shared/seeds/` or ~/x")) == 2
    assert outside_paths("`published/README.md` and https://example.org/work/x") == []
