"""The docs' summary of a reproduction: cross-simulator counts and today's-queues verdicts."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bufrepro.pipeline import docs_summary


def test_cross_sim_counts_are_summed_per_simulator(tmp_path: Path) -> None:
    assert docs_summary.cross_sim(tmp_path) == {}  # one simulator: no table
    pd.DataFrame(
        {
            "study": ["d", "d"],
            "simulator": ["ns3", "ns3"],
            "metric": ["a", "b"],
            "cells": [24, 24],
            "agree": [6, 18],
            "differ": [0, 1],
            "undecided": [18, 5],
            "not_judged": [0, 0],
        }
    ).to_csv(tmp_path / "cross_sim_counts.csv", index=False)
    assert docs_summary.cross_sim(tmp_path) == {
        "ns3": {"cells": 48, "agree": 24, "differ": 1, "undecided": 23, "not_judged": 0}
    }


def test_queue_verdicts_are_keyed_by_scope_claim_and_simulator_queue(tmp_path: Path) -> None:
    pd.DataFrame(
        {
            "scope": ["DropTail", "DropTail"],
            "claim": ["small_buffers_better"] * 2,
            "simulator": ["ns2", "ns3"],
            "queue": ["DropTail", "CoDel"],
            "verdict": ["not judged: n < 5 seeds", "no meaningful difference"],
        }
    ).to_csv(tmp_path / "queues_claims.csv", index=False)
    assert docs_summary.queues(tmp_path) == {
        "DropTail.small_buffers_better": {
            "ns2/DropTail": "not judged: n < 5 seeds",
            "ns3/CoDel": "no meaningful difference",
        }
    }
