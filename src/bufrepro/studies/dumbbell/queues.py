"""The dumbbell's points of the today's-queues figure: TCP delay against throughput per cell."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import prose
from bufrepro.studies.dumbbell.cells import our_cells

WORDS = Path(__file__).with_name("queues.yaml")


def words() -> Mapping[str, Any]:
    """The section's words (queues.yaml)."""
    return prose.load(WORDS)


def cells(summary: pd.DataFrame) -> pd.DataFrame:
    """panel, queue, buffer, throughput (TCP, kb/s), delay (TCP one-way, ms) per cell: the
    metrics the published columns read in the FTP reading (the only one ns-3 runs)."""
    made = our_cells(summary)
    panel = words()["panel"]
    made["panel"] = [
        prose.fill(panel, plr=p, bottleneck_mbps=b)
        for p, b in zip(made["plr"], made["bottleneck_mbps"], strict=True)
    ]
    return made[["panel", "queue", "buffer", "throughput", "delay"]]
