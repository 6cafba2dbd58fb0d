"""The registry of reproduced studies; each module of this package defines one `STUDY`."""

from __future__ import annotations

from bufrepro.studies import dumbbell, hstcp, ramya, vegas
from bufrepro.studies.base import Study

REGISTRY: dict[str, Study] = {
    s.name: s for s in (dumbbell.STUDY, hstcp.STUDY, ramya.STUDY, vegas.STUDY)
}


def get(name: str) -> Study:
    """The study called `name`; an unknown name is an error naming the known ones."""
    if name not in REGISTRY:
        raise KeyError(f"unknown study {name!r}; known: {sorted(REGISTRY)}")
    return REGISTRY[name]
