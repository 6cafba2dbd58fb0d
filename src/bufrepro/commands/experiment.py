"""`bufrepro job experiment-refine` and `experiment-answer`: an experiment's search and answer."""

from __future__ import annotations

import argparse
from pathlib import Path

from bufrepro.commands.command import Command, add_config, config


def _experiment(parser: argparse.ArgumentParser) -> None:
    add_config(parser)
    parser.add_argument("--experiment", required=True)


def _refine_arguments(parser: argparse.ArgumentParser) -> None:
    _experiment(parser)
    parser.add_argument("--out", required=True, help="refine.json")


def _answer_arguments(parser: argparse.ArgumentParser) -> None:
    _experiment(parser)
    parser.add_argument("--template", required=True, help="the page's template")
    parser.add_argument("--page", required=True, help="the page (HTML)")


def _refine(args: argparse.Namespace) -> int:
    """refine.json: the refining buffers, from the coarse runs (the experiment resolved once)."""
    import json

    from bufrepro.pipeline.experiments import plan, run

    exp = plan.resolve(config(args), args.experiment)
    print(json.dumps(run.write_refinement(exp, Path(args.out))))
    return 0


def _answer(args: argparse.Namespace) -> int:
    """The answer, its tables and its page (the experiment resolved once)."""
    from bufrepro.pipeline.experiments import plan, write

    exp = plan.resolve(config(args), args.experiment)
    print(write.write_answer(exp, Path(args.template), Path(args.page)))
    return 0


COMMANDS = (
    Command(
        "experiment-refine", _refine, _refine_arguments, job="an experiment's refining buffers"
    ),
    Command(
        "experiment-answer",
        _answer,
        _answer_arguments,
        job="an experiment's answer, tables and page",
    ),
)
