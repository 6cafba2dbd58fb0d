"""Simulator backends; each module defines `make(settings)` returning a Backend."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from bufrepro.backends.base import Backend


def names() -> list[str]:
    """The backend modules of this package (every module but base)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name != "base")


def get(name: str, settings: Mapping[str, Any]) -> Backend:
    """The backend called `name`, configured from the top-level config; unknown names fail."""
    if name not in names():
        raise KeyError(f"unknown simulator backend {name!r}; known: {names()}")
    module = importlib.import_module(f"bufrepro.backends.{name}")
    backend: Backend = module.make(settings)
    return backend
