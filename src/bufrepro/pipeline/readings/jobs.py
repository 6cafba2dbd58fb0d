"""The readings stages' job verbs (readings-*, claims-calibrated): their dispatch."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def run(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    """Run a readings verb (readings-* or claims-calibrated)."""
    if args.command == "claims-calibrated":
        _claims_calibrated(cfg, args)
    else:
        _readings(cfg, args)


def _claims_calibrated(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    from bufrepro.pipeline.readings import claims, space

    sp = space.load(cfg, args.study, [Path(f) for f in args.space]) if args.state else None
    state = Path(args.state) if args.state else None
    made = claims.write(cfg, args.study, sp, state, Path(args.out), args.reason)
    print(f"claims-calibrated {args.study}: {len(made)} rows written to {args.out}")


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
