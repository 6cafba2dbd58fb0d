"""`bufrepro job readings-*` and `claims-calibrated`: the readings stages' flags and handler."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from bufrepro.commands.command import Command, add_config, config

Arguments = Callable[[argparse.ArgumentParser], None]


def _stage(*more: Arguments) -> Arguments:
    """A readings stage's flags: config, study, space, state, then its own."""

    def add(parser: argparse.ArgumentParser) -> None:
        add_config(parser)
        parser.add_argument("--study", required=True)
        parser.add_argument(
            "--space", nargs="+", required=True, help="the space files, merged in order"
        )
        parser.add_argument("--state", required=True, help="the stage's record (JSON)")
        for own in more:
            own(parser)

    return add


def _runs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=1, help="runs at a time")
    parser.add_argument("--table", required=True)


def _figure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--figure", required=True)


def _diff(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--diff", required=True, help="the best reading's diff")


def _calibration(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--calibration", required=True, help="calibration.csv")


def _verdict(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--confirmation-state", required=True, help="confirmation.json")
    parser.add_argument("--sensitivity", required=True, help="sensitivity.csv")
    parser.add_argument("--sensitivity-state", required=True)
    parser.add_argument("--out", required=True, help="verdict.json")


def _claims_calibrated(parser: argparse.ArgumentParser) -> None:
    add_config(parser)
    parser.add_argument("--study", required=True)
    parser.add_argument(
        "--space", nargs="*", default=[], help="the space files (evaluated studies)"
    )
    parser.add_argument("--state", default="", help="calibration.json (evaluated studies)")
    parser.add_argument("--reason", default="", help="why the readings are not evaluated")
    parser.add_argument("--out", required=True, help="claims_calibrated.csv")


def _run(args: argparse.Namespace) -> int:
    cfg = config(args)
    from bufrepro.pipeline.readings import jobs

    jobs.run(cfg, args)
    return 0


COMMANDS = (
    Command(
        "readings-sensitivity",
        _run,
        _stage(_runs, _figure),
        job="Morris screening of a space of readings",
    ),
    Command(
        "readings-calibrate",
        _run,
        _stage(_runs, _diff),
        job="Latin-hypercube calibration, held-out check",
    ),
    Command(
        "readings-confirm",
        _run,
        _stage(_runs, _diff, _calibration),
        job="the best readings re-run at more seeds",
    ),
    Command(
        "readings-verdict", _run, _stage(_verdict), job="the one-line verdict of a study's readings"
    ),
    Command(
        "claims-calibrated",
        _run,
        _claims_calibrated,
        job="the claims judged on the best reading",
    ),
)
