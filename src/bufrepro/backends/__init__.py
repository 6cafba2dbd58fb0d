"""Simulator backends: the run engine here, each simulator a plug-in module of `simulators`."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from bufrepro.backends import simulators
from bufrepro.backends.base import Backend


def names() -> list[str]:
    """The simulator plug-ins: every module of bufrepro.backends.simulators."""
    return sorted(m.name for m in pkgutil.iter_modules(simulators.__path__))


def get(name: str, settings: Mapping[str, Any]) -> Backend:
    """The backend called `name`, configured from the top-level config; unknown names fail."""
    backend: Backend = _module(name).make(settings)
    return backend


def _module(name: str) -> Any:
    if name not in names():
        raise KeyError(f"unknown simulator backend {name!r}; known: {names()}")
    return importlib.import_module(f"{simulators.__name__}.{name}")


def queues(name: str) -> tuple[str, ...]:
    """The bottleneck queues a backend's scenarios implement (Backend.queues)."""
    return get(name, {}).queues


def missing(name: str) -> str:
    """Why a backend cannot run on this machine, naming what to install ("" when it can)."""
    return get(name, {}).missing()
