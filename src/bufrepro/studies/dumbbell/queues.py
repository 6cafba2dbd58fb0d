"""The dumbbell's points of the today's-queues figure: TCP delay against throughput per cell."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import prose
from bufrepro.kit.stats import wide_column
from bufrepro.studies.dumbbell.cells import KEYS, our_cells

# The figure's rates and delay: its column -> our metric.
METRICS = {
    "throughput": "tcp_throughput_kbps",
    "goodput": "tcp_goodput_kbps",
    "delay": "tcp_delay_ms_mean",
}

WORDS = Path(__file__).with_name("queues.yaml")


def words() -> Mapping[str, Any]:
    """The section's words (queues.yaml)."""
    return prose.load(WORDS)


def cells(summary: pd.DataFrame) -> pd.DataFrame:
    """panel, queue, buffer, throughput (TCP, kb/s), delay (TCP one-way, ms) per cell: the
    metrics the published columns read in the FTP reading (the only one ns-3 runs); goodput
    (TCP, kb/s: throughput without retransmitted copies) where the runs have it; each with
    <column>_low and <column>_high, its 95 % interval."""
    made = our_cells(summary)
    columns = ["panel", "queue", "buffer"]
    for bound in ("ci_low", "ci_high"):
        side = wide_column(summary, KEYS, bound)
        made = made.merge(
            side[[*KEYS, *(m for m in METRICS.values() if m in side)]].rename(
                columns={m: f"{c}_{bound[3:]}" for c, m in METRICS.items()}
            ),
            on=list(KEYS),
            how="left",
        )
    if METRICS["goodput"] in made:
        made["goodput"] = made[METRICS["goodput"]]
    panel = words()["panel"]
    made["panel"] = [
        prose.fill(panel, plr=p, bottleneck_mbps=b)
        for p, b in zip(made["plr"], made["bottleneck_mbps"], strict=True)
    ]
    kept = [f"{c}{s}" for c in METRICS for s in ("", "_low", "_high")]
    return made[[*columns, *(c for c in kept if c in made)]]
