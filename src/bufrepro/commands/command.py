"""One verb of `bufrepro`: its name, its lines of help, its flags and its handler."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Command:
    """A verb. `arguments` adds its flags to its parser; None: the verb reads its own argument
    list (`args.argv`: advise, verify, reproduce keep their own parsers). `run` handles the
    parsed arguments and returns the exit status."""

    name: str
    run: Callable[[argparse.Namespace], int]
    arguments: Callable[[argparse.ArgumentParser], None] | None = None
    # Its line under `bufrepro job --help` (a job verb; "": not listed there).
    job: str = ""
    # Its line under `bufrepro --help` (a user's command; "": not listed there).
    user: str = ""

    def add_to(self, sub: Any) -> None:
        """Register the verb's parser on a parser's subcommands."""
        if self.arguments is None:
            # Every word after the verb is its own (no option of this parser is read).
            own = sub.add_parser(self.name, add_help=False, prefix_chars="\0")
            own.add_argument("argv", nargs=argparse.REMAINDER)
            return
        parser = sub.add_parser(self.name, help=self.job) if self.job else sub.add_parser(self.name)
        self.arguments(parser)


def add_config(parser: argparse.ArgumentParser) -> None:
    """--config, the validated config every stage reads."""
    parser.add_argument("--config", required=True, help="the validated config (YAML)")


def config(args: argparse.Namespace) -> dict[str, Any]:
    """The validated config named by --config (one sentence and exit when unreadable)."""
    from bufrepro.pipeline import configuration

    return configuration.read_validated(Path(args.config), "bufrepro")
