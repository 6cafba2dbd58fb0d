"""The table of `bufrepro`'s verbs: a verb joins by its module's COMMANDS and one line here."""

from __future__ import annotations

import argparse

from bufrepro.commands import (
    advise,
    aggregate,
    bench,
    compare,
    cross_sim,
    docs_summary,
    experiment,
    progress,
    queues,
    readings,
    report,
    reproduce,
    run_batch,
    show,
    verify,
)
from bufrepro.commands.command import Command

# Every verb, the job verbs in the order `bufrepro job --help` lists them. Each is taken with or
# without `job` (the rules call them without).
COMMANDS: tuple[Command, ...] = (
    *run_batch.COMMANDS,
    *aggregate.COMMANDS,
    *compare.COMMANDS,
    *cross_sim.COMMANDS,
    *queues.COMMANDS,
    *report.COMMANDS,
    *progress.COMMANDS,
    *bench.COMMANDS,
    *show.COMMANDS,
    *docs_summary.COMMANDS,
    *readings.COMMANDS,
    *experiment.COMMANDS,
    *advise.COMMANDS,
    *reproduce.COMMANDS,
    *verify.COMMANDS,
)
# The user's commands, in the order `bufrepro --help` lists them (each one's line is its
# Command.user); `job` lists the workflow's verbs.
USER_COMMANDS = ("advise", "reproduce", "verify", "show", "bench", "job")
JOB = "the workflow's internal job verbs, which the Snakemake rules call (bufrepro job --help)"


def find(name: str) -> Command:
    """The verb named `name` (KeyError: none)."""
    return {c.name: c for c in COMMANDS}[name]


def verbs() -> list[str]:
    """Every verb's name, as the parser takes them."""
    return [c.name for c in COMMANDS]


def parser(prog: str = "bufrepro job") -> argparse.ArgumentParser:
    """Every verb's parser, under `prog`; its help lists the job verbs."""
    made = argparse.ArgumentParser(
        prog=prog, description="The workflow's job verbs (the Snakemake rules call them)."
    )
    sub = made.add_subparsers(dest="command", required=True, metavar="<verb>")
    for command in COMMANDS:
        command.add_to(sub)
    return made


def top_help() -> str:
    """What `bufrepro` and `bufrepro --help` print: usage, the user's commands, one line each."""
    said = {c.name: c.user for c in COMMANDS if c.user} | {"job": JOB}
    width = max(len(name) for name in USER_COMMANDS) + 2
    lines = [f"  {name.ljust(width)}{said[name]}" for name in USER_COMMANDS]
    return "\n".join(
        [
            "usage: bufrepro <command> [options]",
            "",
            "Reproduces router-buffer-sizing studies in ns-2 and ns-3, and sizes the buffer of "
            "your own link.",
            "",
            "commands:",
            *lines,
            "",
            "Each command's options: bufrepro <command> --help.",
            "",
        ]
    )


def unknown(word: str) -> str:
    """The one sentence for a command that is neither the user's nor a job verb."""
    return (
        f"bufrepro: unknown command {word!r}; allowed: {', '.join(USER_COMMANDS)} (bufrepro --help)"
    )
