"""The dumbbell grid's keys, and cell-mean tables (delay, throughput) of ours and of the paper's."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from bufrepro.kit.stats import wide_means

KEYS = ("queue", "plr", "bottleneck_mbps", "buffer")


def paper_cells(published: pd.DataFrame) -> pd.DataFrame:
    """The paper's table as cell means (existing and proposed rows of one cell averaged)."""
    cells = published.groupby(list(KEYS), sort=True)[["tcp_delay_ms", "tcp_throughput_kbps"]].mean()
    return cells.reset_index().rename(
        columns={"tcp_delay_ms": "delay", "tcp_throughput_kbps": "throughput"}
    )


def our_cells(summary: pd.DataFrame, metrics: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Our cell means with the columns the claims read (delay, throughput): the metrics the
    published delay and throughput columns read (default: the FTP reading's)."""
    metrics = metrics or {}
    delay = metrics.get("tcp_delay_ms", "tcp_delay_ms_mean")
    throughput = metrics.get("tcp_throughput_kbps", "tcp_throughput_kbps")
    return wide_means(summary, KEYS).rename(columns={delay: "delay", throughput: "throughput"})


# The metric of the most packets waiting at the bottleneck in a run.
QUEUE_MAX = "link_queue_max_pkts"


def our_runs(runs: pd.DataFrame, metrics: Mapping[str, str] | None = None) -> pd.DataFrame | None:
    """Our per-seed values with the columns the claims' tests read (keys, seed, delay,
    throughput, and queue_max where the runs have it), as our_cells names them; None when the
    runs lack one of the others."""
    metrics = metrics or {}
    delay = metrics.get("tcp_delay_ms", "tcp_delay_ms_mean")
    throughput = metrics.get("tcp_throughput_kbps", "tcp_throughput_kbps")
    columns = [*KEYS, "seed", delay, throughput]
    if not set(columns) <= set(runs.columns):
        return None
    # the most packets each run held waiting (does the buffer bind?), where the runs have it
    most = [QUEUE_MAX] if QUEUE_MAX in runs.columns else []
    part = runs[columns + most]
    return part.rename(columns={delay: "delay", throughput: "throughput", QUEUE_MAX: "queue_max"})
