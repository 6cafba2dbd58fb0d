"""What the docs' markup says: the pages, their fenced blocks with their test markers, the repo
paths and module names they name, and the numbers they tie to the pipeline.

The conventions (docs/contributing.md, "Docs that cannot drift"):
- every fenced block has an info string; a shell block (sh, bash, shell, console) is preceded,
  on the nearest non-blank line, by `<!-- test: dry-run -->`, `<!-- test: run -->` or
  `<!-- test: skip (why) -->`;
- inline code holding a `/` is a path from the repository root and must exist (`<study>` stands
  for every study, any other `<...>` for at least one file); `bufrepro.x.y` must import;
- a number the pipeline produces is followed by `<!-- n: KEY -->`, and a test computes KEY.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHELLS = {"sh", "bash", "shell", "console"}
MODES = ("dry-run", "run", "skip")


# The user pages outside docs/: how to run on a SLURM cluster and in a container.
RUN_ELSEWHERE = ("profiles/slurm/README.md", "envs/README.md")


def pages() -> list[Path]:
    """Every Markdown file the checks cover: README.md, CONTRIBUTING.md, docs/, and the SLURM
    and container pages."""
    return [
        REPO / "README.md",
        REPO / "CONTRIBUTING.md",
        *sorted((REPO / "docs").rglob("*.md")),
        *(REPO / p for p in RUN_ELSEWHERE),
    ]


def rel(path: Path) -> str:
    return str(path.relative_to(REPO))


@dataclass(frozen=True)
class Block:
    """A fenced block: where it starts, its info string, its test marker and its text."""

    page: str
    line: int
    info: str
    marker: str
    text: str

    @property
    def mode(self) -> str:
        """dry-run, run, skip, or "" when the marker is missing or unknown."""
        m = re.fullmatch(r"<!-- test: (dry-run|run|skip \(.+\)) -->", self.marker)
        return m.group(1).split(" ", 1)[0] if m else ""

    def commands(self) -> list[list[str]]:
        """The block's commands: continuation lines joined, comments dropped, split as a shell
        would split them."""
        joined = re.sub(r"\\\n", " ", self.text)
        lines = [shlex.split(line, comments=True) for line in joined.splitlines()]
        return [words for words in lines if words]


FENCE = re.compile(r"^(```+|~~~+)\s*(\S*)")


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a page, each with the nearest non-blank line before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i].strip())
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2)
        before = next((t.strip() for t in reversed(lines[:i]) if t.strip()), "")
        end = next(
            (j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(fence)), len(lines)
        )
        text = "\n".join(lines[i + 1 : end])
        found.append(Block(rel(path), i + 1, info, before, text))
        i = end + 1
    return found


def prose(path: Path) -> str:
    """A page without its fenced blocks (inline code and numbers are read from this)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"^(```+|~~~+).*?^\1\s*$", "", text, flags=re.S | re.M)


def inline_code(path: Path) -> list[str]:
    """Every inline code span of a page's prose."""
    return [m.group(2).strip() for m in re.finditer(r"(`+)(.+?)\1", prose(path))]


PATHLIKE = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_.\-/<>{},*]*")


def repo_paths(path: Path) -> list[str]:
    """Inline code that names a repository path (holds a `/`, no spaces, not a URL or an
    absolute path), and the relative link targets of the page."""
    spans = [s for s in inline_code(path) if "/" in s and PATHLIKE.fullmatch(s) and "//" not in s]
    links = [
        m.group(1).split("#", 1)[0]
        for m in re.finditer(r"\]\(([^)\s]+)\)", prose(path))
        if "://" not in m.group(1) and not m.group(1).startswith(("#", "mailto:"))
    ]
    here = path.parent.relative_to(REPO)
    return spans + [os.path.normpath(here / link) for link in links if link]


def module_names(path: Path) -> list[str]:
    """Inline code naming a bufrepro module or one of its attributes."""
    return [s for s in inline_code(path) if re.fullmatch(r"bufrepro(\.[A-Za-z_]\w*)+", s)]


def numbers(path: Path) -> list[tuple[str, str]]:
    """(number as written, key) for every `N <!-- n: KEY -->` of a page."""
    pattern = r"(\d[\d,]*)\**\s*<!-- n: ([\w.:-]+) -->"
    return [(m.group(1), m.group(2)) for m in re.finditer(pattern, prose(path))]
