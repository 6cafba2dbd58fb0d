"""The dumbbell claims' checks on small synthetic tables of cell means."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import claims
from bufrepro.studies.dumbbell.claims import CLAIMS

THRESHOLDS = {"similar_frac": 0.1, "flat_frac": 0.05, "holds_frac": 0.9}


def _cells(delays: dict[int, float], thr: dict[int, float]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "queue": "DropTail",
                "plr": 0.01,
                "bottleneck_mbps": 0.1,
                "buffer": b,
                "delay": delays[b],
                "throughput": thr[b],
            }
            for b in delays
        ]
    )


def test_small_buffers_claim_holds_and_fails() -> None:
    good = _cells({5: 100, 10: 150, 15: 300, 50: 400}, {5: 70, 10: 72, 15: 75, 50: 75})
    bad = _cells({5: 100, 10: 150, 15: 300, 50: 400}, {5: 40, 10: 45, 15: 75, 50: 75})
    claim = CLAIMS[0]
    assert claims.verdict(claim.check(good, THRESHOLDS), 0.9) == "holds"
    assert claims.verdict(claim.check(bad, THRESHOLDS), 0.9) == "fails"


def test_flat_claim_uses_threshold() -> None:
    flat = _cells({15: 300, 30: 305, 50: 310}, {15: 75, 30: 75, 50: 75})
    moving = _cells({15: 300, 30: 400, 50: 500}, {15: 75, 30: 75, 50: 75})
    claim = CLAIMS[1]
    assert [c.ok for c in claim.check(flat, THRESHOLDS)] == [True]
    assert [c.ok for c in claim.check(moving, THRESHOLDS)] == [False]
    assert claims.verdict([], 0.9) == "untestable"


def _runs(queue_max: dict[int, int]) -> pd.DataFrame:
    """Per-seed runs of one cell at 0.1 Mb/s (one packet 120 ms): small buffers' delay 1 ms
    below the large ones', each seed's; the most packets waiting per buffer as given."""
    return pd.DataFrame(
        [
            {
                "queue": "DropTail",
                "plr": 0.01,
                "bottleneck_mbps": 0.1,
                "buffer": b,
                "seed": s,
                "delay": 350.0 + s - (1.0 if b <= 10 else 0.0),
                "throughput": 70.0 + s,
                "queue_max": queue_max[b],
            }
            for b in queue_max
            for s in (1, 2, 3, 4, 5)
        ]
    )


def test_a_buffer_that_never_binds_reads_the_aqm_sets_the_queue() -> None:
    th = {**THRESHOLDS, "delay_tolerance_pkts": 1, "packet_bytes": 1500}
    test = CLAIMS[0].test
    assert test is not None
    # buffers 15 and 50 never held more than 4 waiting: below buffer 5, no buffer binds
    (free,) = test(_runs({5: 4, 10: 4, 15: 4, 50: 4}), th)
    assert free.outcome == "no meaningful difference: the AQM, not the buffer, sets the queue"
    assert "at most 4 packets waiting under buffers 15-50, below buffer 5" in free.evidence
    # 5 waiting under buffer 50: buffer 5 could bind, so the test's own outcome stands
    (bound,) = test(_runs({5: 5, 10: 5, 15: 5, 50: 5}), th)
    assert bound.outcome == "no meaningful difference"
    assert "never binds" not in bound.evidence
    # without the queue's maximum the test is as before
    (plain,) = test(_runs({5: 4, 10: 4, 15: 4, 50: 4}).drop(columns="queue_max"), th)
    assert plain.outcome == "no meaningful difference"
    # under RED, whose thresholds scale with the buffer, the override never applies
    (red,) = test(_runs({5: 4, 10: 4, 15: 4, 50: 4}).assign(queue="RED"), th)
    assert red.outcome == "no meaningful difference"
    assert "never binds" not in red.evidence
    # the queue that ran decides (today's queues judge CoDel's runs under paper 001's "RED")
    (codel,) = test(_runs({5: 4, 10: 4, 15: 4, 50: 4}).assign(queue="RED", queue_ran="CoDel"), th)
    assert codel.outcome.endswith("the AQM, not the buffer, sets the queue")


def test_flat_from_15_is_an_equivalence_test_on_per_seed_values() -> None:
    th = {**THRESHOLDS, "delay_tolerance_pkts": 1, "packet_bytes": 1500}
    test = CLAIMS[1].test
    assert test is not None
    runs = _runs({15: 5, 50: 5})
    # buffers 15 and 50 alike on every seed: inside 120 ms and 10 %, flat: holds
    flat = test(runs, th)
    assert [c.outcome for c in flat] == ["holds", "holds"]
    # buffer 50's delay 300 ms above buffer 15's on every seed: fails
    moved = runs.assign(delay=runs["delay"] + (runs["buffer"] == 50) * 300.0)
    assert [c.outcome for c in test(moved, th)] == ["fails", "holds"]
    # a wide swing around no change: undecided
    swing = runs.assign(delay=runs["delay"] + (runs["buffer"] == 50) * (runs["seed"] - 3) * 200)
    assert test(swing, th)[0].outcome == "undecided"
