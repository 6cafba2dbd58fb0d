"""A study's words for its keys: metric labels and a reading's values (studies/<S>/labels.yaml)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.kit import prose

# "receive window (packets)": the words, then the unit in brackets.
_UNIT = re.compile(r"^(?P<name>.*?)\s*\((?P<unit>[^()]*)\)$")


def _labels(study: str) -> Mapping[str, Any]:
    """The study's labels.yaml ({} for a study without one, or not a registered study)."""
    if study not in registry.names():
        return {}
    path = Path(inspect.getfile(type(registry.get(study)))).with_name("labels.yaml")
    return prose.load(path) if path.is_file() else {}


def metric(study: str, key: str) -> str:
    """A metric's label (the key itself where the study gives none)."""
    return str(_labels(study).get("metrics", {}).get(key, key))


def parameter(study: str, key: str) -> str:
    """A parameter's words without its unit (the key itself where the study gives none)."""
    label = str(_labels(study).get("parameters", {}).get(key, key))
    found = _UNIT.match(label)
    return found.group("name") if found else label


def value_text(value: Any) -> str:
    """A parameter value as a reader writes it: on/off, 12 rather than 12.0, 3 digits."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def setting(study: str, key: str, value: Any) -> str:
    """One parameter at one value: 'receive window 5 packets' ('key = 5' where unlabelled)."""
    label = _labels(study).get("parameters", {}).get(key)
    if label is None:
        return f"{key} = {value_text(value)}"
    found = _UNIT.match(str(label))
    if found:
        return f"{found.group('name')} {value_text(value)} {found.group('unit')}"
    return f"{label} {value_text(value)}"
