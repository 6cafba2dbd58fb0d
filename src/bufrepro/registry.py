"""The studies found in bufrepro.studies (`STUDY`) and experiment kinds in experiments (`KIND`)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from bufrepro import experiments, studies
from bufrepro.kit.experiment import Experiment
from bufrepro.kit.study import Study


@cache
def discover() -> dict[str, Study]:
    """Every study package's STUDY, by name (a package without one is an error naming it)."""
    found: dict[str, Study] = {}
    for module in sorted(pkgutil.iter_modules(studies.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        mod = importlib.import_module(f"bufrepro.studies.{module.name}")
        study = getattr(mod, "STUDY", None)
        if not isinstance(study, Study):
            raise TypeError(f"bufrepro.studies.{module.name} defines no STUDY (a Study instance)")
        if study.name != module.name:
            raise ValueError(
                f"bufrepro.studies.{module.name}: STUDY.name is {study.name!r}; "
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
def kinds() -> dict[str, Experiment]:
    """Every experiment kind package's KIND, by kind name (its package's name)."""
    found: dict[str, Experiment] = {}
    for module in sorted(pkgutil.iter_modules(experiments.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        mod = importlib.import_module(f"bufrepro.experiments.{module.name}")
        kind = getattr(mod, "KIND", None)
        if not isinstance(kind, Experiment) or kind.kind != module.name:
            raise TypeError(
                f"bufrepro.experiments.{module.name} defines no KIND of kind {module.name!r}"
            )
        found[kind.kind] = kind
    return found


def kind(name: str) -> Experiment:
    """The experiment kind called `name`; an unknown name is an error naming the known ones."""
    known = kinds()
    if name not in known:
        raise KeyError(f"unknown experiment kind {name!r}; known: {sorted(known)}")
    return known[name]
