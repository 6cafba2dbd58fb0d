"""Command-line entry points the workflow's rules call: aggregate, compare, plot, report."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml


def _config(path: str) -> dict[str, Any]:
    from bufrepro import config

    with open(path, encoding="utf-8") as fh:
        return config.validate(yaml.safe_load(fh))


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch a subcommand; see --help."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.cli")
    sub = parser.add_subparsers(dest="command", required=True)
    agg = sub.add_parser("aggregate", help="runs.csv, summary.csv and provenance of a study")
    agg.add_argument("--study", required=True)
    agg.add_argument("--runs", required=True)
    agg.add_argument("--summary", required=True)
    agg.add_argument("--provenance", required=True)
    agg.add_argument("metrics", nargs="+", help="every run's metrics.tsv")
    cmp_ = sub.add_parser("compare", help="diff, claims and coverage of a study")
    for name in ("config", "study", "summary", "published", "diff", "claims", "coverage"):
        cmp_.add_argument(f"--{name}", required=True)
    plot = sub.add_parser("plot", help="a study's figures")
    for name in ("study", "summary", "published", "out_dir"):
        plot.add_argument(f"--{name.replace('_', '-')}", required=True)
    rep = sub.add_parser("report", help="the self-contained HTML report")
    for name in ("config", "results", "template", "out"):
        rep.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)

    if args.command == "aggregate":
        from bufrepro import metrics

        n = metrics.write_study_tables(
            args.study, args.metrics, Path(args.runs), Path(args.summary), Path(args.provenance)
        )
        print(f"aggregated {n} runs of {args.study}")
    elif args.command == "compare":
        from bufrepro import compare

        cfg = _config(args.config)
        cov = compare.write_comparison(
            args.study,
            cfg[args.study],
            Path(args.summary),
            Path(args.published),
            Path(args.diff),
            Path(args.claims),
            Path(args.coverage),
        )
        print(f"coverage {cov}")
    elif args.command == "plot":
        from bufrepro import plots

        paths = plots.write_figures(
            args.study, Path(args.summary), Path(args.published), Path(args.out_dir)
        )
        print("figures written:", *paths)
    else:
        from bufrepro import report

        report.build(_config(args.config), Path(args.results), Path(args.template), Path(args.out))
        print(f"report written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
