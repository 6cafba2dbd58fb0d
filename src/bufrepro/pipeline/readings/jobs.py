"""The readings stages' job verbs (readings-*, claims-calibrated): their arguments and dispatch."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parsers(sub: Any) -> None:
    """The readings verbs' parsers on the job command's subparsers."""
    _readings_parsers(sub)
    _claims_calibrated_parser(sub)


def run(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    """Run a readings verb (readings-* or claims-calibrated)."""
    if args.command == "claims-calibrated":
        _claims_calibrated(cfg, args)
    else:
        _readings(cfg, args)


def _claims_calibrated_parser(sub: Any) -> None:
    cal = sub.add_parser("claims-calibrated", help="the claims judged on the best reading")
    cal.add_argument("--config", required=True, help="the validated config (YAML)")
    cal.add_argument("--study", required=True)
    cal.add_argument("--space", nargs="*", default=[], help="the space files (evaluated studies)")
    cal.add_argument("--state", default="", help="calibration.json (evaluated studies)")
    cal.add_argument("--reason", default="", help="why the readings are not evaluated")
    cal.add_argument("--out", required=True, help="claims_calibrated.csv")


def _claims_calibrated(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    from bufrepro.pipeline.readings import claims, space

    sp = space.load(cfg, args.study, [Path(f) for f in args.space]) if args.state else None
    state = Path(args.state) if args.state else None
    made = claims.write(cfg, args.study, sp, state, Path(args.out), args.reason)
    print(f"claims-calibrated {args.study}: {len(made)} rows written to {args.out}")


def _readings_parsers(sub: Any) -> None:
    sens = sub.add_parser("readings-sensitivity", help="Morris screening of a space of readings")
    cal = sub.add_parser("readings-calibrate", help="Latin-hypercube calibration, held-out check")
    conf = sub.add_parser("readings-confirm", help="the best readings re-run at more seeds")
    ver = sub.add_parser("readings-verdict", help="the one-line verdict of a study's readings")
    for p in (sens, cal, conf, ver):
        p.add_argument("--config", required=True, help="the validated config (YAML)")
        p.add_argument("--study", required=True)
        p.add_argument("--space", nargs="+", required=True, help="the space files, merged in order")
        p.add_argument("--state", required=True, help="the stage's record (JSON)")
    for p in (sens, cal, conf):
        p.add_argument("--threads", type=int, default=1, help="runs at a time")
        p.add_argument("--table", required=True)
    sens.add_argument("--figure", required=True)
    for p in (cal, conf):
        p.add_argument("--diff", required=True, help="the best reading's diff")
    conf.add_argument("--calibration", required=True, help="calibration.csv")
    ver.add_argument("--confirmation-state", required=True, help="confirmation.json")
    ver.add_argument("--sensitivity", required=True, help="sensitivity.csv")
    ver.add_argument("--sensitivity-state", required=True)
    ver.add_argument("--out", required=True, help="verdict.json")


def _readings(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    from bufrepro.pipeline.readings import calibration, confirmation, sensitivity, space, verdict

    sp = space.load(cfg, args.study, [Path(f) for f in args.space])
    if args.command == "readings-sensitivity":
        sensitivity.run(
            cfg, sp, args.threads, Path(args.table), Path(args.figure), Path(args.state)
        )
    elif args.command == "readings-calibrate":
        calibration.run(cfg, sp, args.threads, Path(args.table), Path(args.diff), Path(args.state))
    elif args.command == "readings-confirm":
        confirmation.run(
            cfg,
            sp,
            args.threads,
            Path(args.calibration),
            Path(args.table),
            Path(args.diff),
            Path(args.state),
        )
    else:
        # A profile's space may be too small to judge: the default reproduction judges it.
        command = "`bash scripts/reproduce.sh`" if cfg.get("profile") else ""
        made = verdict.write(
            sp,
            Path(args.sensitivity),
            Path(args.sensitivity_state),
            Path(args.state),
            Path(args.confirmation_state),
            Path(args.out),
            command,
        )
        print(made["verdict"])
    print(f"{args.command} {args.study}: written {Path(args.state).read_text(encoding='utf-8')}")
