"""verdicts.seeds_to_decide: the seeds an undecided claim interval would need at its spread."""

from __future__ import annotations

import math

from bufrepro.kit import verdicts
from bufrepro.kit.verdicts import Interval


def test_an_undecided_interval_needs_more_seeds_the_nearer_its_bound() -> None:
    # Estimate 1.5 against t = 1, half-width 2 at 5 seeds: room 0.5, 5 x (2 / 0.5)^2 = 80.
    iv = Interval(1.5, -0.5, 3.5, 5, True)
    assert verdicts.claim_outcome(iv, 1.0, +1) == "undecided"
    assert verdicts.seeds_to_decide(iv, 1.0, +1) == 80
    # The claimed direction mirrors the line: -1.5 claimed negative is the same case.
    mirrored = Interval(-1.5, -3.5, 0.5, 5, True)
    assert verdicts.seeds_to_decide(mirrored, 1.0, -1) == 80


def test_edges_and_points() -> None:
    assert verdicts.seeds_to_decide(Interval(1.0, -1.0, 3.0, 5, True), 1.0, +1) == math.inf
    assert math.isnan(verdicts.seeds_to_decide(Interval(2.0, 2.0, 2.0, 1, False, True), 1, 1))
    assert math.isnan(verdicts.seeds_to_decide(verdicts.NO_INTERVAL, 1.0, 1))
    # Already clear of the bound: the seeds it has.
    assert verdicts.seeds_to_decide(Interval(3.0, 2.0, 4.0, 7, True), 1.0, +1) == 7
