"""The adaptive buffer search: log-spaced coarse buffers, then buffers between knee and below."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

# Stages of the search, in order: a run belongs to the first stage that planned its buffer.
STAGES = ("coarse", "refine")


def log_spaced(lo: int, hi: int, count: int) -> list[int]:
    """`count` integers from lo to hi, log-spaced, rounded, without repeats (ascending)."""
    if count <= 1 or hi <= lo:
        return [lo]
    ratio = (hi / lo) ** (1 / (count - 1))
    return sorted({round(lo * ratio**i) for i in range(count)} | {lo, hi})


def knee(utilisation: Mapping[int, float], within: float) -> int:
    """The smallest buffer whose utilisation is within `within` (a fraction) of the best."""
    best = max(utilisation.values())
    return min(b for b, u in utilisation.items() if u >= (1 - within) * best)


def refinement(tested: Sequence[int], at: int, count: int) -> list[int]:
    """`count` log-spaced new buffers strictly between the tested buffer below `at` and `at`
    (none when `at` is the smallest tested, or the gap holds no new integer)."""
    below = [b for b in sorted(tested) if b < at]
    if not below or count <= 0:
        return []
    lo = below[-1]
    inner = log_spaced(lo, at, count + 2)
    return [b for b in inner if lo < b < at and b not in tested]


def step_around(tested: Sequence[int], at: int) -> tuple[int, int]:
    """The tested buffers just below and just above `at` (itself where there is none)."""
    ordered = sorted(tested)
    below = [b for b in ordered if b < at]
    above = [b for b in ordered if b > at]
    return (below[-1] if below else at, above[0] if above else at)


def steps_apart(tested: Sequence[int], a: int, b: int) -> int:
    """How many search steps (adjacent tested buffers) lie between buffers a and b."""
    ordered = sorted(tested)
    return abs(ordered.index(a) - ordered.index(b)) if a in ordered and b in ordered else math.inf  # type: ignore[return-value]


def seed_sets(seeds: Sequence[int]) -> tuple[list[int], list[int]]:
    """The two seed sets the recommendation is repeated on: the first and second halves."""
    half = len(seeds) // 2
    return list(seeds[:half]), list(seeds[half:])


def near_knee(tested: Sequence[int], at: int) -> list[int]:
    """The tested buffers from the one just below `at` upward: those a second seed set runs
    (the pick lies among them, or between them, unless the set moves the knee a whole step)."""
    low, _ = step_around(tested, at)
    return [b for b in sorted(tested) if b >= low]
