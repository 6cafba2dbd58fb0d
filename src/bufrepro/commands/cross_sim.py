"""`bufrepro job cross-sim`: a study's cross-simulator tables (its own simulator against others)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, add_config, config


def _arguments(parser: argparse.ArgumentParser) -> None:
    add_config(parser)
    parser.add_argument("--study", required=True)
    parser.add_argument(
        "--backend",
        required=True,
        action="append",
        help="a simulator beside the study's own (repeat the flag for each)",
    )
    parser.add_argument("--tables", required=True, help="where cross_sim*.csv go")


def _run(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline import crosssim

    bad = crosssim.write(cfg, args.study, args.backend, Path("results"), Path(args.tables))
    print(f"{args.study}: {bad} cell-metrics differ between the simulators")
    return 0


COMMANDS = (Command("cross-sim", _run, _arguments, job="a study's cross-simulator tables"),)
