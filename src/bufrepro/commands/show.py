"""`bufrepro show`: a finished tree's per-study summary, diffs, coverage and claims."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, config


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        default="results/config.validated.yaml",
        help="the validated config (default: results/config.validated.yaml)",
    )
    parser.add_argument("--results", default="results")
    parser.add_argument("--summary", action="store_true", help="only the per-study summary table")


def _run(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline import show

    profile = str(cfg.get("profile") or "")
    print(show.show(Path(args.results), cfg["studies"], args.summary, profile))
    return 0


COMMANDS = (
    Command(
        "show",
        _run,
        _arguments,
        job="print diffs, coverage and claims",
        user="a finished tree's per-study summary, diffs, coverage and claims",
    ),
)
