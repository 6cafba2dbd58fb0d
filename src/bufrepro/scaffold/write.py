"""Write a new study's files from the scaffold's templates, each placeholder filled."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
MANIFEST = HERE / "files.yaml"


def manifest() -> dict[str, str]:
    """{template: the repository path it becomes, with @S@}."""
    found: dict[str, str] = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return found


def fill(text: str, words: Mapping[str, str]) -> str:
    """The text with each @KEY@ replaced by its word."""
    for key, word in words.items():
        text = text.replace(f"@{key}@", word)
    return text


def literal(text: str) -> str:
    """A Python string literal quoted as ruff quotes it (single quotes when that escapes less)."""
    if '"' in text and "'" not in text:
        return "'" + text.replace("\\", "\\\\") + "'"
    return json.dumps(text, ensure_ascii=False)


def python_string(text: str, width: int = 60) -> str:
    """A Python literal of the text that ruff leaves as it is: one line when short, else
    parenthesised pieces of at most `width` characters, one a line (a class attribute's)."""
    if len(text) <= width:
        return literal(text)
    pieces = textwrap.wrap(text, width, drop_whitespace=False, break_on_hyphens=False)
    inner = "".join(f"        {literal(p)}\n" for p in pieces)
    return f"(\n{inner}    )"


def targets(repo: Path, words: Mapping[str, str]) -> dict[str, Path]:
    """{template: its file in the repository} for the study the words name."""
    return {t: repo / fill(path, words) for t, path in manifest().items()}


def write_files(repo: Path, words: Mapping[str, str]) -> list[Path]:
    """Write every template's file; none may exist yet (FileExistsError names the first)."""
    planned = targets(repo, words)
    taken = [p for p in planned.values() if p.exists()]
    if taken:
        raise FileExistsError(f"{taken[0]} exists: the scaffold writes new files only")
    for template, path in planned.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        text = (TEMPLATES / template).read_text(encoding="utf-8")
        path.write_text(fill(text, words), encoding="utf-8")
    return list(planned.values())
