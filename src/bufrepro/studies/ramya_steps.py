"""The ramya study's own workflow steps.

`python -m bufrepro.studies.ramya_steps compare|series|plot`: see main().
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bufrepro.studies.ramya import KEYS, NAME, notes


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.studies.ramya_steps compare|series|plot ...`: the study's own steps."""
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.ramya_steps")
    sub = parser.add_subparsers(dest="command", required=True)
    cmp_ = sub.add_parser("compare", help="diff, claims, coverage and notes")
    for name in ("config", "summary", "published", "diff", "claims", "coverage", "notes"):
        cmp_.add_argument(f"--{name}", required=True)
    ser = sub.add_parser("series", help="queue-length series of the latency runs (Fig. 3)")
    ser.add_argument("--out", required=True)
    ser.add_argument("queues", nargs="*", help="queue.tr of each run")
    plot = sub.add_parser("plot", help="the study's figures")
    for name in ("summary", "published", "series", "out-dir"):
        plot.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    if args.command == "compare":
        import pandas as pd

        from bufrepro.cli import _config
        from bufrepro.compare import write_comparison

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
        table = notes(block, pd.read_csv(args.summary), pd.read_csv(args.published))
        table.to_csv(args.notes, index=False)
        print(f"coverage {cov}; {len(table)} notes")
    elif args.command == "series":
        n = write_series([Path(p) for p in args.queues], Path(args.out))
        print(f"{n} samples written to {args.out}")
    else:
        from bufrepro.studies import ramya_plots

        paths = ramya_plots.write_all(
            Path(args.summary), Path(args.published), Path(args.series), Path(args.out_dir)
        )
        print("figures written:", *paths)
    return 0


def write_series(queue_files: Sequence[Path], out: Path) -> int:
    """One CSV of queue samples: the run's grid values, seed, time_s, queue_pkts."""
    import json

    import pandas as pd

    frames = []
    for path in queue_files:
        record = json.loads((path.parent / "params.json").read_text(encoding="utf-8"))
        data = pd.read_csv(path, sep=" ", header=None, names=["time_s", "queue_pkts"])
        for key in (*KEYS, "seed"):
            data[key] = record[key]
        frames.append(data)
    cols = [*KEYS, "seed", "time_s", "queue_pkts"]
    table = pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)
    table = table.sort_values([*KEYS, "seed", "time_s"], kind="mergesort")
    table.to_csv(out, index=False, float_format="%.6f")
    return len(table)


if __name__ == "__main__":
    raise SystemExit(main())
