"""Prose kept in data files: a package's YAML texts, filled with the values the code computes."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

# The columns of a study's notes table, in order.
NOTE_FIELDS = ("section", "topic", "paper", "ours", "note")


@cache
def load(path: Path) -> Mapping[str, Any]:
    """The mapping in a YAML file, e.g. one shipped beside a module as package data:
    `load(Path(__file__).with_name("notes.yaml"))`."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping at the top level")
    return data


def fill(text: str, /, **values: Any) -> str:
    """A text with its {placeholders} replaced (str.format: {x:.3f}, {x:g}, {d[key]})."""
    return str(text).format(**values)


def note(texts: Mapping[str, Any], /, **values: Any) -> dict[str, str]:
    """One notes row: each of NOTE_FIELDS filled from `texts` ("" where it has none)."""
    return {f: fill(texts.get(f, ""), **values) for f in NOTE_FIELDS}


def notes(texts: Mapping[str, Any], /, **values: Any) -> list[dict[str, str]]:
    """The rows listed under texts["rows"], each given texts["section"], filled with `values`."""
    return [note({"section": texts["section"], **r}, **values) for r in texts["rows"]]
