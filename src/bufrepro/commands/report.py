"""`bufrepro job report`: the self-contained HTML report (and the tables it shows)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, config


def _arguments(parser: argparse.ArgumentParser) -> None:
    for name in ("config", "results", "template", "out"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument(
        "--command-line", default="", help="the command line, for the provenance block"
    )
    parser.add_argument("--configfiles", default="", help="config files merged (colon-separated)")
    parser.add_argument(
        "--tables-out", default="", help="folder for the summary, diff, claims CSVs"
    )


def _run(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline import report

    report.build(
        cfg,
        Path(args.results),
        Path(args.template),
        Path(args.out),
        command=args.command_line,
        configfiles=[f for f in args.configfiles.split(":") if f],
    )
    if args.tables_out:
        report.write_tables(cfg, Path(args.results), Path(args.tables_out))
    print(f"report written to {args.out}")
    return 0


COMMANDS = (Command("report", _run, _arguments, job="the self-contained HTML report"),)
