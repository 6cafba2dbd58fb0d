"""The `bufrepro` command: the user's commands, and the job verbs the rules call (run-batch)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bufrepro.backends.base import RunFailed
from bufrepro.kit.checks import BadRunFiles
from bufrepro.pipeline import configuration

# Each command imports its stage when it runs: run-batch, the most frequent job, then never pays
# for pandas, matplotlib or Jinja2's report template at start-up.


def _parser(called: str = "bufrepro job") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=called, description="The workflow's job verbs (the Snakemake rules call them)."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="<verb>")
    run = sub.add_parser("run-batch", help="render, simulate and parse one batch of runs")
    agg = sub.add_parser("aggregate", help="runs.csv, summary.csv, provenance, derived tables")
    cmp_ = sub.add_parser("compare", help="diff, claims, coverage and the study's own tables")
    plot = sub.add_parser("plot", help="a study's figures")
    for p in (run, agg, cmp_, plot):
        p.add_argument("--config", required=True, help="the validated config (YAML)")
    for p in (agg, cmp_, plot):
        p.add_argument("--study", required=True)
    run.add_argument(
        "--scope", required=True, help="<study>, <study>/<backend> or experiments/<name>"
    )
    run.add_argument("--batch", required=True, help="b0000, ...; an experiment's coarse-b0000")
    run.add_argument(
        "--threads", type=int, default=1, help="runs made at a time (default 1; the job's cores)"
    )
    cross = sub.add_parser("cross-sim", help="a study's cross-simulator tables")
    cross.add_argument("--config", required=True, help="the validated config (YAML)")
    cross.add_argument("--study", required=True)
    cross.add_argument(
        "--backend",
        required=True,
        action="append",
        help="a simulator beside the study's own (repeat the flag for each)",
    )
    cross.add_argument("--tables", required=True, help="where cross_sim*.csv go")
    run.add_argument("--manifest", required=True)
    agg.add_argument("--provenance", required=True)
    agg.add_argument("manifests", nargs="+", help="the study's batch manifests")
    for p in (agg, cmp_, plot):
        p.add_argument("--tables", required=True, help="the study's tables folder")
    plot.add_argument("--out-dir", required=True)
    for verb, what in (("judge", "tables"), ("plot", "figure")):
        q = sub.add_parser(f"queues-{verb}", help=f"the today's-queues {what} of a study")
        q.add_argument("--config", required=True, help="the validated config (YAML)")
        q.add_argument("--study", required=True)
        q.add_argument("--backend", required=True, help="the simulator that ran the queues")
        q.add_argument("--out", required=True, help=f"where the {what} go")
    rep = sub.add_parser("report", help="the self-contained HTML report")
    for name in ("config", "results", "template", "out"):
        rep.add_argument(f"--{name}", required=True)
    rep.add_argument(
        "--command-line", default="", help="the command line, for the provenance block"
    )
    rep.add_argument("--configfiles", default="", help="config files merged (colon-separated)")
    rep.add_argument("--tables-out", default="", help="folder for the summary, diff, claims CSVs")
    prog = sub.add_parser("progress", help="runs done of the total, with an ETA, while PID runs")
    prog.add_argument("--config", required=True, help="the validated config the workflow writes")
    prog.add_argument("--pid", type=int, required=True, help="the Snakemake process to follow")
    bench = sub.add_parser("bench", help="a run's cost against ns alone; the workflow's too")
    bench.add_argument("--profile", default="quick", help="the config profile to sample from")
    bench.add_argument("--studies", default="", help="comma-separated (default: every study)")
    bench.add_argument("--runs", type=int, default=10, help="sampled runs per study")
    bench.add_argument("--workflow", action="store_true", help="also time the whole workflow")
    bench.add_argument(
        "--simulators",
        action="store_true",
        help="each study's further simulators (ns3): stream off, and against ns2, per cell",
    )
    bench.add_argument("--cores", type=int, default=2)
    bench.add_argument("--work", default="", help="scratch folder (default: a temporary one)")
    bench.add_argument(
        "--grid-only",
        action="store_true",
        help="the workflow without the readings stage: each study's tables and figures only",
    )
    bench.add_argument(
        "--floor-every",
        type=int,
        default=1,
        help="time the floor on every k-th run of each study and estimate the sum (95 %% CI)",
    )
    bench.add_argument(
        "--floor-only",
        action="store_true",
        help="with --workflow: the floor alone (for a reproduction timed in the same sitting)",
    )
    shw = sub.add_parser("show", help="print diffs, coverage and claims")
    shw.add_argument(
        "--config",
        default="results/config.validated.yaml",
        help="the validated config (default: results/config.validated.yaml)",
    )
    shw.add_argument("--results", default="results")
    shw.add_argument("--summary", action="store_true", help="only the per-study summary table")
    doc = sub.add_parser(
        "docs-summary", help="a reproduction's verdicts and counts for the docs (JSON)"
    )
    doc.add_argument("--config", default="results/config.validated.yaml")
    doc.add_argument("--results", default="results")
    doc.add_argument("--out", default="", help="default: docs/data/<profile>-summary.json")
    from bufrepro.pipeline.readings import jobs

    jobs.add_parsers(sub)
    _experiment_parsers(sub)
    return parser


def _verbs(parser: argparse.ArgumentParser | None = None) -> list[str]:
    """The job verbs (bufrepro job --help lists them)."""
    made = parser or _parser()
    found = [a for a in made._actions if isinstance(a, argparse._SubParsersAction)]
    return list(found[0].choices)


def _experiment_parsers(sub: Any) -> None:
    refine = sub.add_parser("experiment-refine", help="an experiment's refining buffers")
    ans = sub.add_parser("experiment-answer", help="an experiment's answer, tables and page")
    for p in (refine, ans):
        p.add_argument("--config", required=True, help="the validated config (YAML)")
        p.add_argument("--experiment", required=True)
    refine.add_argument("--out", required=True, help="refine.json")
    ans.add_argument("--template", required=True, help="the page's template")
    ans.add_argument("--page", required=True, help="the page (HTML)")


def _experiment(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    """experiment-refine and experiment-answer, on the experiment resolved once."""
    from bufrepro.pipeline.experiments import plan

    exp = plan.resolve(cfg, args.experiment)
    if args.command == "experiment-refine":
        import json

        from bufrepro.pipeline.experiments import run

        print(json.dumps(run.write_refinement(exp, Path(args.out))))
    else:
        from bufrepro.pipeline.experiments import write

        print(write.write_answer(exp, Path(args.template), Path(args.page)))


def _bench(args: argparse.Namespace) -> int:
    import tempfile

    from bufrepro.kit.paths import REPO_ROOT
    from bufrepro.pipeline import bench

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
            extra = ["--config", f"studies=[{','.join(names)}]"]
            if args.profile:
                extra.append(f"profile={args.profile}")
            own = cfg["backends"]["ns2"]["prefix"]
            if own or (REPO_ROOT / ".ns2").exists():
                prefix = Path(own or REPO_ROOT / ".ns2").resolve()
                extra.append(f"backends={{ns2: {{prefix: {prefix}}}}}")
            print(
                bench.report_workflow(
                    cfg,
                    names,
                    args.cores,
                    REPO_ROOT,
                    work / "wf",
                    extra,
                    args.grid_only,
                    max(1, args.floor_every),
                    args.floor_only,
                )
            )
    return 0


def _queues(cfg: dict[str, Any], args: argparse.Namespace) -> None:
    """queues-judge: queues_claims.csv and queues_conclusions.csv in --out (a folder);
    queues-plot: the figure, --out a PNG file."""
    from bufrepro.pipeline import queues

    if args.command == "queues-judge":
        n = queues.write(cfg, args.study, args.backend, Path("results"), Path(args.out))
        print(f"{args.study}: {n} claim verdicts on the queues of {args.backend}")
    else:
        from bufrepro.kit.figures import save

        save(queues.figure(cfg, args.study, args.backend, Path("results")), Path(args.out))
        print(f"figure written: {args.out}")


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch a subcommand; a refusal (a bad run's files, failed runs) is one clear message
    on stderr and exit 1, never a traceback."""
    try:
        return _main(argv)
    except (BadRunFiles, RunFailed) as err:
        print(f"bufrepro: {err}", file=sys.stderr)
        return 1


def _main(argv: Sequence[str] | None = None) -> int:
    """Dispatch a command: the user's (bufrepro --help), or a job verb, listed by
    `bufrepro job --help` and still taken without `job` (the rules call them so)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "reproduce"):
        from bufrepro import commands

        return commands.main(argv)
    prog = "bufrepro"
    if argv[0] == "job":
        argv, prog = argv[1:], "bufrepro job"
    if argv and argv[0] == "advise":
        from bufrepro import advise

        return advise.advise(argv[1:])
    if argv and argv[0] == "verify":  # bufrepro.pipeline.verify_cli: its own options
        from bufrepro.pipeline import verify_cli

        return verify_cli.main(argv[1:])
    parser = _parser(prog)
    if argv and argv[0] not in _verbs(parser) and not argv[0].startswith("-"):
        from bufrepro import commands

        print(commands.unknown(argv[0]), file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if args.command == "bench":
        return _bench(args)
    if args.command == "progress":
        from bufrepro.pipeline import progress

        progress.watch(Path(args.config), args.pid)
        return 0
    cfg = configuration.read_validated(Path(args.config), "bufrepro")
    if args.command.startswith("readings-") or args.command == "claims-calibrated":
        from bufrepro.pipeline.readings import jobs

        jobs.run(cfg, args)
    elif args.command == "run-batch":
        from bufrepro.pipeline import batch

        made = batch.run_batch(cfg, args.scope, args.batch, Path(args.manifest), args.threads)
        print(f"{args.scope} {args.batch}: {made} runs made")
    elif args.command.startswith("experiment-"):
        _experiment(cfg, args)
    elif args.command == "cross-sim":
        from bufrepro.pipeline import crosssim

        bad = crosssim.write(cfg, args.study, args.backend, Path("results"), Path(args.tables))
        print(f"{args.study}: {bad} cell-metrics differ between the simulators")
    elif args.command.startswith("queues-"):
        _queues(cfg, args)
    elif args.command == "aggregate":
        from bufrepro.pipeline import aggregate

        n = aggregate.write_tables(
            cfg,
            args.study,
            [Path(m) for m in args.manifests],
            Path(args.tables),
            Path(args.provenance),
        )
        print(f"aggregated {n} runs of {args.study}")
    elif args.command == "compare":
        from bufrepro.pipeline import compare

        print(f"coverage {compare.write_comparison(cfg, args.study, Path(args.tables))}")
    elif args.command == "plot":
        from bufrepro.pipeline import compare

        paths = compare.write_figures(cfg, args.study, Path(args.tables), Path(args.out_dir))
        print("figures written:", *paths)
    elif args.command == "report":
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
    elif args.command == "docs-summary":
        from bufrepro.kit.paths import REPO_ROOT
        from bufrepro.pipeline import docs_summary

        name = f"{cfg.get('profile') or 'default'}-summary.json"
        out = Path(args.out) if args.out else REPO_ROOT / "docs" / "data" / name
        print(docs_summary.write(Path(args.results), cfg, cfg["studies"], out))
    else:
        from bufrepro.pipeline import show

        profile = str(cfg.get("profile") or "")
        print(show.show(Path(args.results), cfg["studies"], args.summary, profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
