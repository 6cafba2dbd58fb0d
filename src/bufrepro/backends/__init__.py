"""Simulator backends; each module defines `make(settings)` returning a Backend."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from bufrepro.backends.base import Backend

# Modules of this package that are not backends: the interface and the run steps (with their child
# processes, simulator servers, twin runs and many runs at once), the AWK parsers the backends
# declare, and helpers of the ns-2 scenarios' streams.
NOT_BACKENDS = (
    "awk",
    "base",
    "fingerprint",
    "proc",
    "reuse",
    "runall",
    "servers",
    "streamsum",
    "tally",
)


def names() -> list[str]:
    """The backend modules of this package (every module but NOT_BACKENDS)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name not in NOT_BACKENDS)


def get(name: str, settings: Mapping[str, Any]) -> Backend:
    """The backend called `name`, configured from the top-level config; unknown names fail."""
    backend: Backend = _module(name).make(settings)
    return backend


def _module(name: str) -> Any:
    if name not in names():
        raise KeyError(f"unknown simulator backend {name!r}; known: {names()}")
    return importlib.import_module(f"bufrepro.backends.{name}")


def queues(name: str) -> tuple[str, ...]:
    """The bottleneck queues a backend's scenarios implement (Backend.queues)."""
    return get(name, {}).queues


def missing(name: str) -> str:
    """Why a backend cannot run on this machine, naming what to install ("" when it can)."""
    return get(name, {}).missing()
