"""The studies found in bufrepro.studies (`STUDY`) and experiment kinds in experiments (`KIND`)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any

from bufrepro import experiments, studies
from bufrepro.kit.experiment import Experiment
from bufrepro.kit.study import Study


def _packages(package: ModuleType) -> Iterator[tuple[str, ModuleType]]:
    """Each sub-package of `package` (name order), imported: (its name, the module)."""
    for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if module.ispkg:
            yield module.name, importlib.import_module(f"{package.__name__}.{module.name}")


@cache
def discover() -> dict[str, Study]:
    """Every study package's STUDY, by name (a package without one is an error naming it)."""
    found: dict[str, Study] = {}
    for name, mod in _packages(studies):
        study = getattr(mod, "STUDY", None)
        if not isinstance(study, Study):
            raise TypeError(f"bufrepro.studies.{name} defines no STUDY (a Study instance)")
        if study.name != name:
            raise ValueError(
                f"bufrepro.studies.{name}: STUDY.name is {study.name!r}; "
                "it must be the package's name"
            )
        found[study.name] = study
    return found


def names() -> list[str]:
    """The names of the discovered studies."""
    return sorted(discover())


def get(name: str) -> Study:
    """The study called `name`; an unknown name is an error naming the known ones."""
    known = discover()
    if name not in known:
        raise KeyError(f"unknown study {name!r}; known: {sorted(known)}")
    return known[name]


@cache
def kinds() -> dict[str, Experiment[Any]]:
    """Every experiment kind package's KIND, by kind name (its package's name)."""
    found: dict[str, Experiment[Any]] = {}
    for name, mod in _packages(experiments):
        kind = getattr(mod, "KIND", None)
        if not isinstance(kind, Experiment) or kind.kind != name:
            raise TypeError(f"bufrepro.experiments.{name} defines no KIND of kind {name!r}")
        found[kind.kind] = kind
    return found


def kind(name: str) -> Experiment[Any]:
    """The experiment kind called `name`; an unknown name is an error naming the known ones."""
    known = kinds()
    if name not in known:
        raise KeyError(f"unknown experiment kind {name!r}; known: {sorted(known)}")
    return known[name]
