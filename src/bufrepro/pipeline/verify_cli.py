"""The `verify` command: re-simulate a results tree's runs and report those that differ."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bufrepro.pipeline import configuration, verify


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bufrepro verify",
        description="Re-render, re-simulate and re-parse a sample of a results tree's runs with "
        "the recorded simulator build and compare metrics.tsv byte for byte; writes "
        "RESULTS/verify.json, which the report's provenance section reads.",
    )
    p.add_argument("results", nargs="?", default="results", help="the tree (default: results)")
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--sample",
        type=float,
        default=verify.DEFAULT_SAMPLE,
        help=f"share of runs re-simulated, in (0, 1] (default {verify.DEFAULT_SAMPLE})",
    )
    how.add_argument("--all", action="store_true", help="re-simulate every run")
    p.add_argument("--seed", type=int, help="the sample's seed (default: a random one, recorded)")
    p.add_argument("--config", help="the config (default: RESULTS/config.validated.yaml)")
    p.add_argument("--json", action="store_true", help="print the record as JSON")
    return p


def _config(results: Path, given: str | None) -> dict[str, Any]:
    """The config given, else the tree's own (RESULTS/config.validated.yaml), validated."""
    path = Path(given) if given else results / "config.validated.yaml"
    return configuration.read_validated(path, "bufrepro verify")


def main(argv: Sequence[str]) -> int:
    """Exit 0 when every checked run is identical, 1 when one differs or was refused."""
    args = parser().parse_args(list(argv))
    results = Path(args.results)
    if not results.is_dir():
        print(f"bufrepro verify: {results}: no such results tree", file=sys.stderr)
        return 2
    fraction = 1.0 if args.all else args.sample
    if not 0 < fraction <= 1:
        print(f"bufrepro verify: --sample {fraction}: allowed (0, 1]", file=sys.stderr)
        return 2
    cfg = _config(results, args.config)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    outcomes, record = verify.verify(cfg, results, fraction, seed)
    verify.write_record(results, record)
    print(json.dumps(record, indent=1, sort_keys=True) if args.json else verify.summary(record))
    return 0 if all(o.status == "same" for o in outcomes) else 1
