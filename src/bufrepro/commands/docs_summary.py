"""`bufrepro job docs-summary`: a reproduction's verdicts and counts for the docs (JSON)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, config


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default="results/config.validated.yaml")
    parser.add_argument("--results", default="results")
    parser.add_argument("--out", default="", help="default: docs/data/<profile>-summary.json")


def _run(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.kit.paths import REPO_ROOT
    from bufrepro.pipeline import docs_summary

    name = f"{cfg.get('profile') or 'default'}-summary.json"
    out = Path(args.out) if args.out else REPO_ROOT / "docs" / "data" / name
    print(docs_summary.write(Path(args.results), cfg, cfg["studies"], out))
    return 0


COMMANDS = (
    Command(
        "docs-summary",
        _run,
        _arguments,
        job="a reproduction's verdicts and counts for the docs (JSON)",
    ),
)
