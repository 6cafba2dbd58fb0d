"""The `bufrepro` command: the user's commands, and the job verbs the rules call (run-batch)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bufrepro.backends.base import RunFailed
from bufrepro.commands import table
from bufrepro.kit.checks import BadRunFiles

# Each verb imports its stage when it runs (bufrepro.commands.*): run-batch, the most frequent
# job, then never pays for pandas, matplotlib or Jinja2's report template at start-up.


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch a subcommand; a refusal (a bad run's files, failed runs) is one clear message
    on stderr and exit 1, never a traceback."""
    try:
        return _main(argv)
    except (BadRunFiles, RunFailed) as err:
        print(f"bufrepro: {err}", file=sys.stderr)
        return 1


def _main(argv: Sequence[str] | None = None) -> int:
    """Dispatch a command from the table (bufrepro.commands.table): the user's (bufrepro
    --help), or a job verb, listed by `bufrepro job --help` and still taken without `job`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(table.top_help(), end="")
        return 0
    prog = "bufrepro"
    if argv[0] == "job":
        argv, prog = argv[1:], "bufrepro job"
    if argv and argv[0] not in table.verbs() and not argv[0].startswith("-"):
        print(table.unknown(argv[0]), file=sys.stderr)
        return 2
    args = table.parser(prog).parse_args(argv)
    return table.find(args.command).run(args)


if __name__ == "__main__":
    sys.exit(main())
