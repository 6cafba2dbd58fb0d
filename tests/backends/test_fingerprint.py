"""The run fingerprint: one text per run identity, which every field of the identity changes."""

from __future__ import annotations

import dataclasses

from bufrepro.backends.fingerprint import fingerprint, run_digest
from bufrepro.kit.grid import RunPoint

POINT = RunPoint("dumbbell", (("queue", "DropTail"), ("buffer", 10)), 1, ("", "buf"))


def test_the_text_names_study_digest_seed_and_end() -> None:
    assert fingerprint(POINT, 100) == f"bufrepro dumbbell run={run_digest(POINT)} seed=1 end=100"
    assert len(run_digest(POINT)) == 16
    assert fingerprint(POINT, 100) == fingerprint(dataclasses.replace(POINT), 100)


def test_seed_buffer_study_and_end_each_change_it() -> None:
    others = [
        dataclasses.replace(POINT, seed=2),
        dataclasses.replace(POINT, values=(("queue", "DropTail"), ("buffer", 20))),
        dataclasses.replace(POINT, values=(("queue", "RED"), ("buffer", 10))),
        dataclasses.replace(POINT, owner="ramya"),
    ]
    digests = {run_digest(p) for p in [POINT, *others]}
    assert len(digests) == 5
    assert fingerprint(POINT, 100) != fingerprint(POINT, 50)
    # The path labels are not the identity: the same run under other folder names.
    assert run_digest(dataclasses.replace(POINT, labels=("q", "b"))) == run_digest(POINT)
