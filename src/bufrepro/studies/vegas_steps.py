"""The vegas study's own workflow steps.

`python -m bufrepro.studies.vegas_steps compare|series|plot`: see main().
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bufrepro.studies.vegas import KEYS, NAME


def write_series(series_files: Sequence[Path], out: Path) -> int:
    """One CSV of throughput bins: the run's grid values, seed, time_s, throughput_kbps."""
    import json

    import pandas as pd

    frames = []
    for path in series_files:
        record = json.loads((path.parent / "params.json").read_text(encoding="utf-8"))
        data = pd.read_csv(path, sep=" ", header=None, names=["time_s", "throughput_kbps"])
        for key in (*KEYS, "seed"):
            data[key] = record[key]
        frames.append(data)
    cols = [*KEYS, "seed", "time_s", "throughput_kbps"]
    table = pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)
    table = table.sort_values([*KEYS, "seed", "time_s"], kind="mergesort")
    table.to_csv(out, index=False, float_format="%.6f")
    return len(table)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.studies.vegas_steps compare|series|plot ...`: the study's own steps."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.vegas_steps")
    sub = parser.add_subparsers(dest="command", required=True)
    cmp_ = sub.add_parser("compare", help="diff, claims, coverage, notes and Tables V-VI")
    files = ("config", "summary", "runs", "published", "diff", "claims", "coverage", "notes", "bdp")
    for name in files:
        cmp_.add_argument(f"--{name}", required=True)
    ser = sub.add_parser("series", help="throughput series of the RTT runs (Figs. 7-8)")
    ser.add_argument("--out", required=True)
    ser.add_argument("series", nargs="*", help="series.tsv of each run")
    plot = sub.add_parser("plot", help="the study's figures")
    for name in ("summary", "published", "bdp", "series", "out-dir"):
        plot.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    if args.command == "compare":
        import pandas as pd

        from bufrepro.cli import _config
        from bufrepro.compare import write_comparison
        from bufrepro.studies.vegas import bdp_report
        from bufrepro.studies.vegas_notes import notes

        block = _config(args.config)[NAME]
        cov = write_comparison(
            NAME,
            block,
            Path(args.summary),
            Path(args.published),
            Path(args.diff),
            Path(args.claims),
            Path(args.coverage),
        )
        summary = pd.read_csv(args.summary)
        table = notes(block, summary, pd.read_csv(args.published), pd.read_csv(args.runs))
        table.to_csv(args.notes, index=False)
        bdp_report(block, summary).to_csv(args.bdp, index=False, float_format="%.6f")
        print(f"coverage {cov}; {len(table)} notes")
    elif args.command == "series":
        n = write_series([Path(p) for p in args.series], Path(args.out))
        print(f"{n} bins written to {args.out}")
    else:
        from bufrepro.studies import vegas_plots

        paths = vegas_plots.write_all(
            Path(args.summary),
            Path(args.published),
            Path(args.bdp),
            Path(args.series),
            Path(args.out_dir),
        )
        print("figures written:", *paths)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
