"""`bufrepro verify`: re-simulate a sample of a results tree (its flags: pipeline.verify_cli)."""

from __future__ import annotations

import argparse

from bufrepro.commands.command import Command


def _run(args: argparse.Namespace) -> int:
    from bufrepro.pipeline import verify_cli

    return verify_cli.main(args.argv)


COMMANDS = (
    Command(
        "verify",
        _run,
        user="re-simulate a sample of a results tree and report the runs that differ",
    ),
)
