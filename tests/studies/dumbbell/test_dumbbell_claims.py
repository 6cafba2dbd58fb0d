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
