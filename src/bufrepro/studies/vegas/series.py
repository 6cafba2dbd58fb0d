"""The vegas study's throughput series (Figs. 7-8), from the kept series of the RTT-setup runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import tables
from bufrepro.kit.study import Block
from bufrepro.studies.vegas.params import KEYS, SERIES_FILE

COLUMNS = [*KEYS, "seed", "time_s", "throughput_kbps"]


def series_records(block: Block, run_dirs: Sequence[Path]) -> list[tuple[Path, dict[str, Any]]]:
    """(run folder, bound params.json record) of each RTT-setup run of the monitor's series seed."""
    seed = block["monitor"]["series_seed"]
    out = []
    for run_dir in run_dirs:
        record = tables.read_params(Path(run_dir))  # bound to run.json and its folder
        if record["setup"] == "rtt" and record["seed"] == seed:
            out.append((run_dir, record))
    return out


def read_series(run_dir: Path, record: dict[str, Any]) -> pd.DataFrame:
    """One run's throughput bins ("time_s throughput_kbps" lines) with its grid values and seed."""
    data = pd.read_csv(
        run_dir / SERIES_FILE, sep=" ", header=None, names=["time_s", "throughput_kbps"]
    )
    for key in (*KEYS, "seed"):
        data[key] = record[key]
    return data


def throughput_series(block: Block, run_dirs: Sequence[Path]) -> pd.DataFrame:
    """The throughput bins of those runs: grid values, seed, time_s, throughput_kbps, sorted."""
    frames = [read_series(d, r) for d, r in series_records(block, run_dirs)]
    table = (
        pd.concat(frames, ignore_index=True)[COLUMNS] if frames else pd.DataFrame(columns=COLUMNS)
    )
    table = table.sort_values([*KEYS, "seed", "time_s"], kind="mergesort")
    return table.reset_index(drop=True)
