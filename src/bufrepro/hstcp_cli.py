"""Entry points of the hstcp study's own rules (rules/studies/hstcp.smk).

Subcommands: model, twoflow, compare, plot.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml


def _block(path: str) -> dict[str, Any]:
    from bufrepro import config

    with open(path, encoding="utf-8") as fh:
        cfg: dict[str, Any] = config.validate(yaml.safe_load(fh))
    return dict(cfg["hstcp"])


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch a subcommand; see --help."""
    parser = argparse.ArgumentParser(prog="python -m bufrepro.hstcp_cli")
    sub = parser.add_subparsers(dest="command", required=True)
    mod = sub.add_parser("model", help="the model's curves (tables/model.csv)")
    mod.add_argument("--config", required=True)
    mod.add_argument("--out", required=True)
    two = sub.add_parser("twoflow", help="the two-flow runs as a table and per-case means")
    two.add_argument("--runs", required=True)
    two.add_argument("--summary", required=True)
    two.add_argument("metrics", nargs="+", help="every two-flow run's metrics.tsv")
    cmp_ = sub.add_parser("compare", help="diff of the claims, verdicts, model vs simulation")
    for name in ("config", "summary", "published", "model", "twoflow"):
        cmp_.add_argument(f"--{name}", required=True)
    for name in ("diff", "claims", "coverage", "model_vs_sim"):
        cmp_.add_argument(f"--{name.replace('_', '-')}", required=True)
    plot = sub.add_parser("plot", help="every figure of the study")
    for name in ("summary", "model", "under", "over", "out_dir"):
        plot.add_argument(f"--{name.replace('_', '-')}", required=True)
    args = parser.parse_args(argv)

    import pandas as pd

    from bufrepro.studies import hstcp

    if args.command == "model":
        table = hstcp.model_table(_block(args.config))
        table.to_csv(args.out, index=False, float_format="%.9g")
        bad = table[~table["converged"]]
        print(f"model: {len(table)} fixed points, {len(bad)} not converged")
    elif args.command == "twoflow":
        from bufrepro import metrics

        rows = []
        for path in map(Path, args.metrics):
            record = json.loads((path.parent / "params.json").read_text(encoding="utf-8"))
            row: dict[str, Any] = {"case": record["case"], "seed": record["seed"]}
            row["buffer_frac"] = record["buffer_frac"]
            row.update(metrics.read_metrics(path))
            rows.append(row)
        runs = pd.DataFrame(rows).sort_values(["case", "seed"], kind="mergesort")
        runs.to_csv(args.runs, index=False, float_format="%.6f")
        hstcp.twoflow_summary(runs).to_csv(args.summary, index=False, float_format="%.6f")
        print(f"two-flow: {len(runs)} runs")
    elif args.command == "compare":
        from bufrepro import compare

        block = _block(args.config)
        summary = pd.read_csv(args.summary)
        model = pd.read_csv(args.model)
        diff, claims = hstcp.compare_tables(
            block, summary, pd.read_csv(args.published), model, pd.read_csv(args.twoflow)
        )
        diff.to_csv(args.diff, index=False, float_format="%.6g")
        claims.to_csv(args.claims, index=False)
        hstcp.model_vs_sim(summary, model).to_csv(
            args.model_vs_sim, index=False, float_format="%.6g"
        )
        cov = compare.coverage(diff)
        Path(args.coverage).write_text(json.dumps(cov, indent=1) + "\n", encoding="utf-8")
        print(f"coverage {cov}")
    else:
        from bufrepro import plots

        series = {
            "under": pd.read_csv(args.under, sep="\t"),
            "over": pd.read_csv(args.over, sep="\t"),
        }
        figures = hstcp.draw_tables(pd.read_csv(args.summary), pd.read_csv(args.model), series)
        out = Path(args.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for name, fig in figures.items():
            plots.save(fig, out / f"{name}.png")
        print("figures written:", *sorted(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
