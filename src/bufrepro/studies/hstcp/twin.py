"""ns-2's runs at the cells ns-3 runs apart from the paper's grid (hstcp.twin), summarised."""

# python -m bufrepro.studies.hstcp.twin --config results/hstcp/config.yaml \
#     --runs T/twin_runs.csv --summary T/twin_summary.csv
# The default runs hstcp on ns-3 on scenario 1 scaled to 50 Mb/s (config/config.yaml's
# simulator_grid), a scenario the paper's grid never names. hstcp.twin names the same cells for
# ns-2 (declared in sides.py): they run as scope hstcp/twin of the batch rule
# (results/hstcp/twin/...), outside the grid, so that the paper's claims, diff and figures stay
# on its own scenarios, and their summary is the cross-simulator table's ns-2 side at those
# cells (Hstcp.reference_tables).

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bufrepro.kit import configs, tables
from bufrepro.studies.hstcp import params, sides

FLOAT_FORMAT = "%.6f"


def write(done: Sequence[Path], runs_path: Path, summary_path: Path) -> int:
    """twin_runs.csv and twin_summary.csv (the grid's columns; empty files when no run)."""
    from bufrepro.studies.hstcp import STUDY

    if not done:
        for path in (runs_path, summary_path):
            path.write_text("", encoding="utf-8")
        return 0
    runs, summary, _ = tables.study_tables(
        "hstcp",
        list(done),
        params.KEYS,
        STUDY.reported,
        STUDY.own_simulator(),
        STUDY.required_metrics(),
    )
    tables.stable_runs(runs).to_csv(runs_path, index=False, float_format=FLOAT_FORMAT)
    summary.to_csv(summary_path, index=False, float_format=FLOAT_FORMAT)
    return len(runs)


def main(argv: Sequence[str] | None = None) -> int:
    """Write twin_runs.csv and twin_summary.csv from the twin runs (made by the batch rule)."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.hstcp.twin")
    for name in ("config", "runs", "summary"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    cfg: dict[str, Any] = configs.read_yaml(Path(args.config))
    n = write(sides.run_dirs(cfg["hstcp"], "twin"), Path(args.runs), Path(args.summary))
    print(f"twin: {n} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
