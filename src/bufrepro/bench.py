"""Sum Snakemake benchmark files: simulation and parse time, and orchestration overhead."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd


def load(results: Path) -> pd.DataFrame:
    """Every benchmark TSV under results/<study>/benchmarks/<rule>/ as rows with study and rule."""
    rows = []
    for path in sorted(results.glob("*/benchmarks/*/**/*.tsv")):
        rel = path.relative_to(results).parts
        frame = pd.read_csv(path, sep="\t")
        frame["study"], frame["rule"] = rel[0], rel[2]
        rows.append(frame)
    if not rows:
        raise FileNotFoundError(f"no benchmark files under {results}")
    return pd.concat(rows, ignore_index=True)


def summary(bench: pd.DataFrame, wall_s: float | None, cores: int) -> str:
    """Per rule: jobs, summed wall and CPU seconds; with the workflow's wall time, the overhead."""
    per_rule = bench.groupby(["study", "rule"]).agg(
        jobs=("s", "size"), wall_s=("s", "sum"), cpu_s=("cpu_time", "sum")
    )
    lines = [per_rule.to_string(float_format=lambda v: f"{v:.1f}")]
    total = float(bench["s"].sum())
    lines.append(
        f"summed job wall time (ns + parse): {total:.1f} s; per core: {total / cores:.1f} s"
    )
    if wall_s is not None:
        lines.append(
            f"workflow wall time {wall_s:.1f} s on {cores} cores: "
            f"{wall_s / (total / cores):.2f} x the summed job time per core "
            "(the rest is Snakemake, rendering and Python start-up)"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.bench [--wall SECONDS] [--cores N] [RESULTS]`."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.bench")
    parser.add_argument("results", nargs="?", default="results")
    parser.add_argument("--wall", type=float, default=None, help="the workflow's wall time (s)")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    print(summary(load(Path(args.results)), args.wall, args.cores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
