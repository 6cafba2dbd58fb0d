"""ns-2's runs at the cells ns-3 runs apart from the paper's grid (hstcp.twin), summarised."""

# python -m bufrepro.studies.hstcp.twin --config results/hstcp/config.yaml \
#     --runs T/twin_runs.csv --summary T/twin_summary.csv
# The default runs hstcp on ns-3 on scenario 1 scaled to 50 Mb/s (config/config.yaml's
# simulator_grid), a scenario the paper's grid never names. hstcp.twin names the same cells for
# ns-2: they run here (results/hstcp/twin/...), outside the grid, so that the paper's claims,
# diff and figures stay on its own scenarios, and their summary is the cross-simulator table's
# ns-2 side at those cells (Hstcp.reference_tables).

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bufrepro import backends
from bufrepro.backends.base import RunSpec
from bufrepro.backends.runall import execute_all
from bufrepro.kit import configs, tables
from bufrepro.kit.grid import RunPoint
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp import params
from bufrepro.studies.hstcp.scenarios import NS2

FLOAT_FORMAT = "%.6f"
GRID_RUNS = "results/hstcp/runs/"
TWIN_RUNS = "results/hstcp/twin/"


def twin_block(block: Block) -> dict[str, Any]:
    """The study's block with hstcp.twin's grid values and seeds (the claims' own fractions
    planned as in the grid); no cell when hstcp.twin is empty."""
    twin = dict(block.get("twin") or {})
    seeds = list(twin.pop("seeds", block["seeds"]))
    return {**block, "grid": {**block["grid"], **twin}, "seeds": seeds}


def points(block: Block) -> list[RunPoint]:
    """Every twin run (none when hstcp.twin is empty)."""
    if not block.get("twin"):
        return []
    from bufrepro.studies.hstcp import STUDY

    return STUDY.runs(twin_block(block))


def run_dir(point: RunPoint, base: Path = Path()) -> Path:
    """A twin run's folder: the grid run's path under results/hstcp/twin/."""
    return base / point.run_dir.replace(GRID_RUNS, TWIN_RUNS, 1)


def spec(block: Block, point: RunPoint, base: Path = Path()) -> RunSpec:
    """One twin run, made by the study's ns-2 declaration exactly as a grid run is."""
    setup = twin_block(block)
    record = {**point.as_dict(), "template": NS2.template, "params": NS2.params(setup, point)}
    return RunSpec(
        run_dir=run_dir(point, base),
        owner=point.owner,
        record=record,
        scenario=NS2.template,
        parser=NS2.parser_for(setup, point),
        parser_args=NS2.parse_args(setup, point),
        stream=NS2.stream,
        side_files=NS2.side_files,
        side_parser=NS2.side_parser,
        kept_files=NS2.kept_files,
        options=NS2.options,
    )


def specs(block: Block, base: Path = Path()) -> list[RunSpec]:
    """Every twin run as a run spec for the generic executor."""
    return [spec(block, p, base) for p in points(block)]


def run_all(cfg: Mapping[str, Any], base: Path = Path()) -> list[RunSpec]:
    """Run (or find current) every twin run; a failed run fails the job after the others."""
    runs = specs(cfg["hstcp"], base)
    if not runs:
        return []
    backend = backends.get("ns2", cfg)
    done = execute_all(backend, runs, bool(cfg.get("keep_traces", False)), "twin runs")
    return [d.spec for d in done]


def write(done: Sequence[RunSpec], runs_path: Path, summary_path: Path) -> int:
    """twin_runs.csv and twin_summary.csv (the grid's columns; empty files when no run)."""
    from bufrepro.studies.hstcp import STUDY

    if not done:
        for path in (runs_path, summary_path):
            path.write_text("", encoding="utf-8")
        return 0
    runs, summary, _ = tables.study_tables(
        "hstcp", [s.run_dir for s in done], params.KEYS, STUDY.reported, STUDY.required_metrics()
    )
    tables.stable_runs(runs).to_csv(runs_path, index=False, float_format=FLOAT_FORMAT)
    summary.to_csv(summary_path, index=False, float_format=FLOAT_FORMAT)
    return len(runs)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the twin runs and write twin_runs.csv and twin_summary.csv."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.hstcp.twin")
    for name in ("config", "runs", "summary"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    cfg: dict[str, Any] = configs.read_yaml(Path(args.config))
    n = write(run_all(cfg), Path(args.runs), Path(args.summary))
    print(f"twin: {n} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
