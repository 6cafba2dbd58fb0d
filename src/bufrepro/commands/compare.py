"""`bufrepro job compare` and `plot`: a study's diff, claims, coverage and tables; its figures."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, add_config, config


def _study_tables(parser: argparse.ArgumentParser) -> None:
    add_config(parser)
    parser.add_argument("--study", required=True)
    parser.add_argument("--tables", required=True, help="the study's tables folder")


def _plot_arguments(parser: argparse.ArgumentParser) -> None:
    _study_tables(parser)
    parser.add_argument("--out-dir", required=True)


def _compare(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline import compare

    print(f"coverage {compare.write_comparison(cfg, args.study, Path(args.tables))}")
    return 0


def _plot(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline import compare

    paths = compare.write_figures(cfg, args.study, Path(args.tables), Path(args.out_dir))
    print("figures written:", *paths)
    return 0


COMMANDS = (
    Command(
        "compare",
        _compare,
        _study_tables,
        job="diff, claims, coverage and the study's own tables",
    ),
    Command("plot", _plot, _plot_arguments, job="a study's figures"),
)
