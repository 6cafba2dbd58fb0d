"""awk/lib/integrity.awk's duplicate-line check against its definition, on random streams."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LIB = REPO / "awk" / "lib"
ENV = {**os.environ, "LC_ALL": "C", "AWKPATH": str(LIB)}
# Every line through integ_line($1); the numbers of the lines it rejects on stdout. With
# repeat=1, lines whose second field is "R" may repeat (INTEG_REPEAT, as hstcp's samples at t0).
DRIVER = """@include "metrics.awk"
@include "integrity.awk"
BEGIN { PROG = "driver"; integ_init() }
{ INTEG_REPEAT = (repeat && $2 == "R"); if (!integ_line($1)) print FNR; INTEG_REPEAT = 0 }
"""


def rejected(lines: list[str], repeat: int = 0) -> list[int]:
    proc = subprocess.run(
        ["gawk", "-v", f"repeat={repeat}", DRIVER],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [int(n) for n in proc.stdout.split()]


def expected(lines: list[str], repeat: int = 0) -> list[int]:
    """The definition: a line identical to an earlier line of the same time (the first field)."""
    out, seen, now = [], set(), None
    for i, line in enumerate(lines, 1):
        t = float(line.split()[0])
        if t != now:
            now, seen = t, set()
        elif line in seen and not (repeat and line.split()[1] == "R"):
            out.append(i)
        seen.add(line)
    return out


@pytest.mark.parametrize("size", [2, 3, 4, 6])
def test_every_duplicate_within_a_time_step_fails(size: int) -> None:
    # One time step of `size` distinct lines, then each of them again, one at a time.
    step = [f"1.5 + {k} x" for k in range(size)]
    for k in range(size):
        lines = ["1.0 a", *step, step[k], "2.0 b"]
        assert rejected(lines) == [size + 2], (size, k)


def test_lines_of_other_times_may_repeat() -> None:
    lines = ["1.0 + 1", "1.0 - 1", "2.0 + 1", "2.0 - 1", "2.0 r 1", "3.0 + 1"]
    assert rejected(lines) == []


def test_allowed_repeats_pass_at_any_position() -> None:
    lines = ["1.0 R q", "1.0 R q", "1.0 x", "1.0 R q", "1.0 x"]
    assert rejected(lines, repeat=1) == [5]


@pytest.mark.parametrize("seed", range(20))
def test_random_streams_match_the_definition(seed: int) -> None:
    rng = random.Random(seed)
    lines, t = [], 0.0
    for _ in range(400):
        if rng.random() < 0.4:
            t += rng.choice([0.25, 1.0])
        lines.append(f"{t:g} {rng.choice('+-rdR')} {rng.randrange(3)}")
    for repeat in (0, 1):
        assert rejected(lines, repeat) == expected(lines, repeat)
