"""The studies found in bufrepro.studies: each package there defines one `STUDY`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from bufrepro import studies
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
