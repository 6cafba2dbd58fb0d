"""A run's fingerprint: the header line its scenario writes first and its parsers verify."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bufrepro.kit.grid import RunPoint

# The template variable and the parser -v variable that carry it (the same text in both).
VARIABLE = "fingerprint"
# How many hex digits of the run's sha256 the header carries (64 bits: no two runs of one
# sweep collide in practice, and the line stays short).
DIGEST_CHARS = 16


def run_digest(point: RunPoint) -> str:
    """The sha256 (first DIGEST_CHARS hex digits) of the identity: study, swept values, seed."""
    identity = json.dumps(point.as_dict(), sort_keys=True, default=str)
    return hashlib.sha256(identity.encode()).hexdigest()[:DIGEST_CHARS]


def fingerprint(point: RunPoint, t_end: Any) -> str:
    """The header's text without its leading "# ": "bufrepro STUDY run=DIGEST seed=N end=T_END".

    The scenario writes "# " + this as the first line of each parsed stream; the parsers get
    it as -v fingerprint=... and fail on a stream whose first line differs, naming the field
    (study, seed, end, or run: another swept value such as the buffer).
    """
    return f"bufrepro {point.owner} run={run_digest(point)} seed={point.seed} end={t_end}"
