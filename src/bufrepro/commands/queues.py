"""`bufrepro job queues-judge` and `queues-plot`: the today's-queues tables and figure."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from bufrepro.commands.command import Command, add_config, config


def _arguments(what: str) -> Callable[[argparse.ArgumentParser], None]:
    def add(parser: argparse.ArgumentParser) -> None:
        add_config(parser)
        parser.add_argument("--study", required=True)
        parser.add_argument("--backend", required=True, help="the simulator that ran the queues")
        parser.add_argument("--out", required=True, help=f"where the {what} go")

    return add


def _judge(args: argparse.Namespace) -> int:
    """queues_claims.csv and queues_conclusions.csv in --out (a folder)."""
    cfg = config(args)
    from bufrepro.pipeline import queues

    n = queues.write(cfg, args.study, args.backend, Path("results"), Path(args.out))
    print(f"{args.study}: {n} claim verdicts on the queues of {args.backend}")
    return 0


def _plot(args: argparse.Namespace) -> int:
    """The figure, --out a PNG file."""
    cfg = config(args)
    from bufrepro.kit.figures import save
    from bufrepro.pipeline import queues

    save(queues.figure(cfg, args.study, args.backend, Path("results")), Path(args.out))
    print(f"figure written: {args.out}")
    return 0


COMMANDS = (
    Command(
        "queues-judge", _judge, _arguments("tables"), job="the today's-queues tables of a study"
    ),
    Command("queues-plot", _plot, _arguments("figure"), job="the today's-queues figure of a study"),
)
