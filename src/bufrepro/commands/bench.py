"""`bufrepro bench`: a run's cost against ns alone; the workflow's too (docs/run-cost.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bufrepro.commands.command import Command

LINE = "a run's cost against ns alone; the workflow's too"


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default="quick", help="the config profile to sample from")
    parser.add_argument("--studies", default="", help="comma-separated (default: every study)")
    parser.add_argument("--runs", type=int, default=10, help="sampled runs per study")
    parser.add_argument("--workflow", action="store_true", help="also time the whole workflow")
    parser.add_argument(
        "--simulators",
        action="store_true",
        help="each study's further simulators (ns3): stream off, and against ns2, per cell",
    )
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--work", default="", help="scratch folder (default: a temporary one)")
    parser.add_argument(
        "--grid-only",
        action="store_true",
        help="the workflow without the readings stage: each study's tables and figures only",
    )
    parser.add_argument(
        "--floor-every",
        type=int,
        default=1,
        help="time the floor on every k-th run of each study and estimate the sum (95 %% CI)",
    )
    parser.add_argument(
        "--floor-only",
        action="store_true",
        help="with --workflow: the floor alone (for a reproduction timed in the same sitting)",
    )


def _workflow_args(cfg: dict[str, Any], names: list[str], profile: str) -> list[str]:
    """The workflow's --config words: the studies, the profile, the ns-2 build in use."""
    from bufrepro.kit.paths import REPO_ROOT

    extra = ["--config", f"studies=[{','.join(names)}]"]
    if profile:
        extra.append(f"profile={profile}")
    own = cfg["backends"]["ns2"]["prefix"]
    if own or (REPO_ROOT / ".ns2").exists():
        prefix = Path(own or REPO_ROOT / ".ns2").resolve()
        extra.append(f"backends={{ns2: {{prefix: {prefix}}}}}")
    return extra


def _run(args: argparse.Namespace) -> int:
    import tempfile

    from bufrepro.kit.paths import REPO_ROOT
    from bufrepro.pipeline import bench, configuration

    if args.work and Path(args.work).is_dir() and any(Path(args.work).iterdir()):
        # Its runs would be found current and timed as free: refuse rather than mislead.
        print(
            f"bufrepro bench: --work {args.work} is not empty: the runs it would time may "
            "already exist there (they would be found current, not run); give an empty or "
            "new folder",
            file=sys.stderr,
        )
        return 2
    cfg = configuration.load(profile=args.profile)
    names = [n for n in args.studies.split(",") if n] or cfg["studies"]
    with tempfile.TemporaryDirectory(prefix="bufrepro-bench-") as tmp:
        work = Path(args.work or tmp)
        print(f"[bench] profile {args.profile!r}, {args.runs} sampled runs per study")
        if args.simulators:
            from bufrepro.pipeline import bench_sims

            print(bench_sims.report(args.profile, names, work / "sims"), flush=True)
        elif args.runs > 0:
            print(bench.report_runs(cfg, names, args.runs, work / "runs"), flush=True)
        if args.workflow:
            print(
                bench.report_workflow(
                    cfg,
                    names,
                    args.cores,
                    REPO_ROOT,
                    work / "wf",
                    _workflow_args(cfg, names, args.profile),
                    args.grid_only,
                    max(1, args.floor_every),
                    args.floor_only,
                )
            )
    return 0


COMMANDS = (Command("bench", _run, _arguments, job=LINE, user=f"{LINE} (docs/run-cost.md)"),)
