"""Simulator backends: the run engine here, each simulator a plug-in module of `simulators`."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro.backends import simulators
from bufrepro.backends.base import Backend
from bufrepro.kit import configs


def names() -> list[str]:
    """The simulator plug-ins: every module of bufrepro.backends.simulators."""
    return sorted(m.name for m in pkgutil.iter_modules(simulators.__path__))


def get(name: str, config: Mapping[str, Any]) -> Backend:
    """The backend called `name`, made from its settings (config key backends.<name>; the
    validated config or any mapping holding that key); unknown names fail."""
    backend: Backend = _module(name).make(settings(config, name))
    return backend


def settings(config: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """A backend's own settings in a config: config key backends.<name> (empty if absent)."""
    found: Mapping[str, Any] = config.get("backends", {}).get(name, {})
    return found


def schema(name: str) -> dict[str, Any]:
    """A backend's piece of the config schema: <name>.settings.yaml beside its module."""
    path = Path(_module(name).__file__).with_name(f"{name}.settings.yaml")
    if not path.is_file():
        return {"type": "object", "additionalProperties": False, "default": {}}
    piece: dict[str, Any] = configs.read_yaml(path)
    return piece


def _module(name: str) -> Any:
    if name not in names():
        raise KeyError(f"unknown simulator backend {name!r}; known: {names()}")
    return importlib.import_module(f"{simulators.__name__}.{name}")


def queues(name: str) -> tuple[str, ...]:
    """The bottleneck queues a backend's scenarios implement (Backend.queues)."""
    return get(name, {}).queues


def every_queue() -> list[str]:
    """The queues of every backend, each once, in the backends' order (their tables' union)."""
    return list(dict.fromkeys(q for b in names() for q in queues(b)))


def study_schema(path: Path) -> dict[str, Any]:
    """A study's schema (config/<study>.schema.yaml): its grid's queue axis, where it has one,
    takes the queues of every backend, so a queue joins with one entry in a backend's table."""
    found: dict[str, Any] = dict(configs.read_yaml(path))
    axis = found.get("properties", {}).get("grid", {}).get("properties", {}).get("queue")
    if axis is not None:
        axis["items"] = {"enum": every_queue()}
    return found


def missing(name: str) -> str:
    """Why a backend cannot run on this machine, naming what to install ("" when it can)."""
    return get(name, {}).missing()
