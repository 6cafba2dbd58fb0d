"""The queue-length series of Fig. 3: the kept queue.tr of the series seed's latency runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import tables
from bufrepro.kit.study import Block
from bufrepro.studies.ramya.params import KEYS, QUEUE_FILE

# The setup whose runs give the series (the ping setup of Section 4.1).
SETUP = "latency"
COLUMNS = [*KEYS, "seed", "time_s", "queue_pkts"]


def _record(run_dir: Path) -> dict[str, Any]:
    """The run's params.json, bound to its run.json and folder (checks.BadRunFiles if not)."""
    return tables.read_params(run_dir)


def series_runs(block: Block, run_dirs: Sequence[Path]) -> list[Path]:
    """The run folders of the latency setup at monitor.series_seed (from their params.json)."""
    seed = block["monitor"]["series_seed"]
    return [
        Path(d)
        for d in run_dirs
        if (rec := _record(Path(d)))["setup"] == SETUP and rec["seed"] == seed
    ]


def read_queue(run_dir: Path) -> pd.DataFrame:
    """One run's queue samples (time_s, queue_pkts) with its grid values and seed."""
    record = _record(run_dir)
    # comment="#": the file's first line is the run's header (its fingerprint).
    data = pd.read_csv(
        run_dir / QUEUE_FILE, sep=" ", header=None, names=["time_s", "queue_pkts"], comment="#"
    )
    for key in (*KEYS, "seed"):
        data[key] = record[key]
    return data


def queue_series(block: Block, run_dirs: Sequence[Path]) -> pd.DataFrame:
    """One table of queue samples: the run's grid values, seed, time_s, queue_pkts."""
    frames = [read_queue(d) for d in series_runs(block, run_dirs)]
    if not frames:
        return pd.DataFrame(columns=COLUMNS)
    table = pd.concat(frames, ignore_index=True)[COLUMNS]
    return table.sort_values([*KEYS, "seed", "time_s"], kind="mergesort").reset_index(drop=True)
