"""The `bufrepro` command's own listing: the user's commands first, the workflow's jobs apart."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

from bufrepro.kit.paths import REPO_ROOT

# The user's commands, in the order `bufrepro --help` lists them, each with its one line. The
# workflow's job verbs (run-batch, aggregate, ...) are not listed here: `bufrepro job --help`.
USER_COMMANDS = {
    "advise": "which buffer your own link needs: runs it and answers (docs/own-link.md)",
    "reproduce": "every configured study end to end (scripts/reproduce.sh [CORES] [snakemake "
    "args])",
    "verify": "re-simulate a sample of a results tree and report the runs that differ",
    "show": "a finished tree's per-study summary, diffs, coverage and claims",
    "bench": "a run's cost against ns alone; the workflow's too (docs/run-cost.md)",
    "job": "the workflow's internal job verbs, which the Snakemake rules call "
    "(bufrepro job --help)",
}
REPRODUCE = REPO_ROOT / "scripts" / "reproduce.sh"


def top_help() -> str:
    """What `bufrepro` and `bufrepro --help` print: usage, the user's commands, one line each."""
    width = max(len(name) for name in USER_COMMANDS) + 2
    lines = [f"  {name.ljust(width)}{line}" for name, line in USER_COMMANDS.items()]
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


def reproduce(argv: Sequence[str]) -> int:
    """`bufrepro reproduce [CORES] [snakemake arguments]`: scripts/reproduce.sh, as it is."""
    if any(a in ("-h", "--help") for a in argv):
        print(
            "usage: bufrepro reproduce [CORES] [snakemake arguments]\n\n"
            f"Runs {REPRODUCE.relative_to(REPO_ROOT)}: installs what is missing, runs every "
            "configured study on CORES cores (default: all) and prints the per-study summary.\n"
            "e.g. bufrepro reproduce 2 --configfile config/quick.yaml"
        )
        return 0
    return subprocess.call(["bash", str(REPRODUCE), *argv], cwd=REPO_ROOT)


def main(argv: Sequence[str]) -> int:
    """`bufrepro` alone or with --help: the listing; `bufrepro reproduce ...`: the script."""
    if argv and argv[0] == "reproduce":
        return reproduce(argv[1:])
    print(top_help(), end="")
    return 0
