"""The docs build into a site with MkDocs in strict mode: a broken link, a missing page or a page
left out of the navigation fails the build, so it fails here."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from docs_markup import REPO


def build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """A strict build; not quiet (-q hides the warnings that strict mode counts)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    out = build(REPO, tmp_path / "site")
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [p for v in nav.values() for p in nav_pages(v)]
    if isinstance(nav, list):
        return [p for v in nav for p in nav_pages(v)]
    return []


def test_every_page_is_in_the_navigation() -> None:
    cfg = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = set(nav_pages(cfg["nav"]))
    found = {str(p.relative_to(REPO / "docs")) for p in (REPO / "docs").rglob("*.md")}
    assert listed == found


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


@pytest.mark.parametrize(
    ("page", "text"),
    [
        ("docs/orphan.md", "# A page left out of the navigation\n"),
        ("docs/glossary.md", "\nSee [a page that is gone](gone.md).\n"),
        ("docs/glossary.md", "\nSee [a heading that is gone](index.md#no-such-heading).\n"),
    ],
    ids=["orphan", "broken-link", "broken-anchor"],
)
def test_a_strict_build_fails_on(copy: Path, page: str, text: str) -> None:
    with (copy / page).open("a", encoding="utf-8") as fh:
        fh.write(text)
    out = build(copy, copy / "site")
    text = out.stdout + out.stderr
    assert out.returncode != 0 and "WARNING" in text, text


def reading_guide(text: str) -> str:
    """The guide to the summary's columns, from its first line to the end of its closing
    paragraph ('So "did it reproduce?" has three answers ...')."""
    start = text.index("Read the summary row of a study")
    closing = text.index('So "did it reproduce?"', start)
    end = text.find("\n\n", closing)
    return text[start : end if end >= 0 else len(text)].strip()


def test_the_site_and_the_readme_read_the_summary_alike() -> None:
    """The README's guide to the summary is the home page's too (links rebased on docs/)."""
    readme = reading_guide((REPO / "README.md").read_text(encoding="utf-8"))
    home = reading_guide((REPO / "docs" / "index.md").read_text(encoding="utf-8"))
    assert home == readme.replace("](docs/", "](")
