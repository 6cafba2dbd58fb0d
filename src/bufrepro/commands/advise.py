"""`bufrepro advise`: which buffer your own link needs (its flags: bufrepro.advise)."""

from __future__ import annotations

import argparse

from bufrepro.commands.command import Command


def _run(args: argparse.Namespace) -> int:
    from bufrepro import advise

    return advise.advise(args.argv)


COMMANDS = (
    Command(
        "advise",
        _run,
        user="which buffer your own link needs: runs it and answers (docs/own-link.md)",
    ),
)
