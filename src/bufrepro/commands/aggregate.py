"""`bufrepro job aggregate`: a study's runs.csv, summary.csv, provenance and derived tables."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, add_config, config


def _arguments(parser: argparse.ArgumentParser) -> None:
    add_config(parser)
    parser.add_argument("--study", required=True)
    parser.add_argument("--provenance", required=True)
    parser.add_argument("manifests", nargs="+", help="the study's batch manifests")
    parser.add_argument("--tables", required=True, help="the study's tables folder")


def _run(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline import aggregate

    n = aggregate.write_tables(
        cfg, args.study, [Path(m) for m in args.manifests], Path(args.tables), Path(args.provenance)
    )
    print(f"aggregated {n} runs of {args.study}")
    return 0


COMMANDS = (
    Command("aggregate", _run, _arguments, job="runs.csv, summary.csv, provenance, derived tables"),
)
