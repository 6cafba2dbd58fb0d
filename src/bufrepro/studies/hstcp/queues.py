"""hstcp's points of the today's-queues figure: queueing delay against utilisation per cell."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import prose
from bufrepro.kit.stats import wide_means
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.params import KEYS

WORDS = Path(__file__).with_name("queues.yaml")


def words() -> Mapping[str, Any]:
    """The section's words (queues.yaml)."""
    return prose.load(WORDS)


def cells(block: Block, summary: pd.DataFrame) -> pd.DataFrame:
    """panel, queue, buffer (fraction of the R1-R2 BDP), throughput (utilisation) and delay per
    cell. hstcp.awk measures no packet's delay: the delay is the mean time in the bottleneck
    queue by Little's law, its mean length over its departure rate (utilisation x capacity /
    packet size), from the cell's means."""
    made = wide_means(summary, KEYS)
    scenarios = block["scenarios"]
    mbps = made["scenario"].map(lambda s: float(scenarios[str(s)]["bottleneck_mbps"]))
    rate_pps = made["link_utilisation"] * mbps * 1e6 / (8 * int(block["packet_bytes"]))
    made["delay"] = 1000 * made["queue_avg_pkts"] / rate_pps
    made["throughput"] = made["link_utilisation"]
    made["buffer"] = made["buffer_frac"]
    panel = words()["panel"]
    made["panel"] = [
        prose.fill(panel, scenario=s, bottleneck_mbps=m)
        for s, m in zip(made["scenario"], mbps, strict=True)
    ]
    return made[["panel", "queue", "buffer", "throughput", "delay"]]
