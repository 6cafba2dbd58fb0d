"""`bufrepro job progress`: runs done of the total, with an ETA, while a Snakemake process runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the validated config the workflow writes")
    parser.add_argument("--pid", type=int, required=True, help="the Snakemake process to follow")


def _run(args: argparse.Namespace) -> int:
    from bufrepro.pipeline import progress

    progress.watch(Path(args.config), args.pid)
    return 0


COMMANDS = (
    Command(
        "progress", _run, _arguments, job="runs done of the total, with an ETA, while PID runs"
    ),
)
