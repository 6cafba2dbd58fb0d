"""The two-flow runs of Figs. 5-6 (one job: every case and seed) and their tables."""

# python -m bufrepro.studies.hstcp.twoflow --config results/hstcp/config.yaml \
#     --runs T/twoflow_runs.csv --summary T/twoflow_summary.csv --series T/twoflow_series.csv
# runs each two-flow run (results/hstcp/twoflow/<case>/seed<N>/) with the generic executor of
# bufrepro.backends.base, skipping those already current, then writes the tables.

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro import backends
from bufrepro.backends.base import RunSpec
from bufrepro.backends.fingerprint import fingerprint
from bufrepro.backends.runall import execute_all
from bufrepro.kit import configs, tables
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.params import (
    BACKEND_OPTIONS,
    PARSER,
    STREAM,
    TEMPLATE,
    TIMESERIES,
    awk_args,
    buffer_pkts,
    common,
    flows,
    link,
)

CASES = ("under", "over")
# Float formats of the tables this module writes (as Study.table_formats names them).
FLOAT_FORMAT = "%.6f"


def twoflow_bdp(block: Block) -> int:
    """BDP of the two-flow path at the flows' mean RTT (under/over fractions are of it)."""
    tf = block["twoflow"]
    mean_rtt = sum(tf["rtts_ms"]) / len(tf["rtts_ms"])
    bits: float = tf["bottleneck_mbps"] * 1e6 * mean_rtt / 1000
    pkt: int = block["packet_bytes"]
    return max(1, round(bits / (8 * pkt)))


def twoflow_record(block: Block, case: str, seed: int) -> dict[str, Any]:
    """params.json record of one two-flow run (Figs. 5-6): case 'under' or 'over'."""
    if case not in CASES:
        raise ValueError(f"two-flow case {case!r}; known: {CASES}")
    tf = block["twoflow"]
    bdp = twoflow_bdp(block)
    frac = tf[f"{case}_frac"]
    buf = buffer_pkts(frac, bdp)
    sc = {"bottleneck_delay_ms": tf["bottleneck_delay_ms"]}
    p = {
        **common(block),
        **link(block, tf["bottleneck_mbps"], tf["bottleneck_delay_ms"], "DropTail", buf, bdp),
        "seed": seed,
        "scenario": f"twoflow-{case}",
        "buffer_frac": frac,
        "flows": flows(block, sc, tf["rtts_ms"]),
        "warmup_s": tf["warmup_s"],
        "duration_s": tf["duration_s"],
        # The stream's header (the parser checks it): the run is identified by case and seed.
        "fingerprint": fingerprint(
            RunPoint("hstcp", (("twoflow", case), ("buffer_frac", frac)), seed), tf["duration_s"]
        ),
        "timeseries_s": tf["timeseries_s"],
    }
    return {
        "study": "hstcp",
        "case": case,
        "seed": seed,
        "buffer_frac": frac,
        "template": TEMPLATE,
        "params": p,
    }


def run_dir(case: str, seed: int, base: Path = Path()) -> Path:
    """The folder of one two-flow run."""
    return base / "results" / "hstcp" / "twoflow" / case / f"seed{seed}"


def specs(block: Block, base: Path = Path()) -> list[RunSpec]:
    """Every two-flow run (each case x twoflow.seeds) as a run spec for the generic executor."""
    out = []
    for case in CASES:
        for seed in block["twoflow"]["seeds"]:
            record = twoflow_record(block, case, seed)
            out.append(
                RunSpec(
                    run_dir=run_dir(case, seed, base),
                    owner="hstcp",
                    record=record,
                    scenario=TEMPLATE,
                    parser=PARSER,
                    parser_args=awk_args(record["params"]),
                    stream=STREAM,
                    kept_files=(TIMESERIES,),
                    options=BACKEND_OPTIONS,
                )
            )
    return out


def run_all(cfg: Mapping[str, Any], base: Path = Path()) -> list[RunSpec]:
    """Run (or find current) every two-flow run; a failed run fails the job after the others."""
    backend = backends.get("ns2", cfg)
    runs = specs(cfg["hstcp"], base)
    done = execute_all(backend, runs, bool(cfg.get("keep_traces", False)), "two-flow runs")
    return [d.spec for d in done]


def runs_table(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """One row per two-flow run: case, seed, buffer fraction and its metrics."""
    rows = []
    for d in run_dirs:
        record = tables.read_params(d, swept=False)
        row: dict[str, Any] = {"case": record["case"], "seed": record["seed"]}
        row["buffer_frac"] = record["buffer_frac"]
        row.update(tables.read_bound_metrics(d, swept=False))
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
    for case in CASES:
        path = run_dir(case, block["twoflow"]["seeds"][0], base) / TIMESERIES
        part = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        part.insert(0, "case", case)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the two-flow runs and write twoflow_runs.csv, twoflow_summary.csv, the series."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.hstcp.twoflow")
    for name in ("config", "runs", "summary", "series"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    # The workflow's validated config (every default filled in, checked).
    cfg: dict[str, Any] = configs.read_yaml(Path(args.config))
    done = run_all(cfg)
    runs = runs_table([s.run_dir for s in done])
    runs.to_csv(args.runs, index=False, float_format=FLOAT_FORMAT)
    twoflow_summary(runs).to_csv(args.summary, index=False, float_format=FLOAT_FORMAT)
    series_table(cfg["hstcp"]).to_csv(args.series, index=False)
    print(f"two-flow: {len(runs)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
