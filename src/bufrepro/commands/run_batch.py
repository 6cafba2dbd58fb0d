"""`bufrepro job run-batch`: render, simulate and parse one batch of runs (rule run_batch)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, add_config, config


def _arguments(parser: argparse.ArgumentParser) -> None:
    add_config(parser)
    parser.add_argument(
        "--scope", required=True, help="<study>, <study>/<backend> or experiments/<name>"
    )
    parser.add_argument("--batch", required=True, help="b0000, ...; an experiment's coarse-b0000")
    parser.add_argument(
        "--threads", type=int, default=1, help="runs made at a time (default 1; the job's cores)"
    )
    parser.add_argument("--manifest", required=True)


def _run(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline import batch

    made = batch.run_batch(cfg, args.scope, args.batch, Path(args.manifest), args.threads)
    print(f"{args.scope} {args.batch}: {made} runs made")
    return 0


COMMANDS = (
    Command("run-batch", _run, _arguments, job="render, simulate and parse one batch of runs"),
)
