"""The tables of the two-flow runs of Figs. 5-6 (every case and seed)."""

# python -m bufrepro.studies.hstcp.twoflow --config results/hstcp/config.yaml \
#     --runs T/twoflow_runs.csv --summary T/twoflow_summary.csv --series T/twoflow_series.csv
# reads each two-flow run (results/hstcp/twoflow/<case>/seed<N>/, declared in sides.py, made by
# the batch rule as scope hstcp/twoflow) and writes the tables.

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import configs, tables
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp import sides
from bufrepro.studies.hstcp.params import TIMESERIES

# Float formats of the tables this module writes (as Study.table_formats names them).
FLOAT_FORMAT = "%.6f"


def runs_table(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """One row per two-flow run: case, seed, buffer fraction and its metrics."""
    rows = []
    for d in run_dirs:
        record = tables.read_params(d)
        row: dict[str, Any] = {"case": record["case"], "seed": record["seed"]}
        row["buffer_frac"] = record["params"]["buffer_frac"]
        row.update(tables.read_bound_metrics(d))
        rows.append(row)
    return pd.DataFrame(rows).sort_values(["case", "seed"], kind="mergesort")


def twoflow_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per case: mean of each metric over seeds (tput_ratio_short_long, jain_index, ...)."""
    cols = [c for c in runs.columns if c not in ("case", "seed", "study", "buffer_frac")]
    out = runs.groupby("case", sort=True)[cols].mean(numeric_only=True).reset_index()
    out.insert(1, "seeds", runs.groupby("case", sort=True)["seed"].count().to_numpy())
    return out


def series_table(block: Block, base: Path = Path()) -> pd.DataFrame:
    """The time series the figures show (each case's first seed), as printed, with a case column."""
    parts = []
    first = block["twoflow"]["seeds"][0]
    for point in (p for p in sides.twoflow_points(block) if p.seed == first):
        case = str(point.get("case"))
        path = base / point.run_dir / TIMESERIES
        part = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        part.insert(0, "case", case)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Write twoflow_runs.csv, twoflow_summary.csv and the series from the two-flow runs."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.hstcp.twoflow")
    for name in ("config", "runs", "summary", "series"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    # The workflow's validated config (every default filled in, checked).
    cfg: dict[str, Any] = configs.read_yaml(Path(args.config))
    runs = runs_table(sides.run_dirs(cfg["hstcp"], "twoflow"))
    runs.to_csv(args.runs, index=False, float_format=FLOAT_FORMAT)
    twoflow_summary(runs).to_csv(args.summary, index=False, float_format=FLOAT_FORMAT)
    series_table(cfg["hstcp"]).to_csv(args.series, index=False)
    print(f"two-flow: {len(runs)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
