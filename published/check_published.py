#!/usr/bin/env python3
"""Sanity checks for the transcribed published numbers in this folder (stdlib only).

For every CSV: the header must match exactly, required columns must be non-empty, numeric
columns must parse, categorical columns must hold allowed values, and the row counts per
(seed_file, table) must match what the papers print. Prints the counts; exits 1 on failure.

Usage: python published/check_published.py
"""

from __future__ import annotations

import csv
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED_RE = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")

S0 = "000_2aa0e755a3c7bea1.txt"
S1 = "001_b65ae81af7f065fb.txt"
S2 = "002_5d42423dd5aa5b6d.txt"
S3 = "003_fffbe5369a667c8f.txt"
S4 = "004_3bee746e20d1e1b9.txt"


def is_float(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def is_int(s: str) -> bool:
    return re.fullmatch(r"-?\d+", s) is not None


# Per file: exact header, {column: kind}, expected counts per (seed_file, group column).
# kind: "int" / "float" must parse and be non-empty; "int?" / "float?" may be empty;
# "str" must be non-empty; "str?" may be empty; a set means one of those values.
SPECS: dict[str, dict[str, object]] = {
    "dumbbell.csv": {
        "header": [
            "seed_file",
            "table",
            "block",
            "row",
            "queue",
            "side",
            "plr",
            "bottleneck_mbps",
            "buffer",
            "tcp_delay_ms",
            "tcp_throughput_kbps",
            "packets_lost",
            "note",
        ],
        "kinds": {
            "seed_file": "seed",
            "table": {"Table 3", "Table 4", "Table 5"},
            "block": "str",
            "row": "int",
            "queue": {"DropTail", "RED"},
            "side": {"existing", "proposed"},
            "plr": {"0.01", "0.02", "0.05"},
            "bottleneck_mbps": {"0.05", "0.1", "0.5"},
            "buffer": "int",
            "tcp_delay_ms": "float",
            "tcp_throughput_kbps": "float",
            "packets_lost": "int",
            "note": "str?",
        },
        "group": "table",
        # 000: 3 blocks x 6 rows x 2 sides; 001: 3 blocks x (5 existing + 6 proposed)
        "expected": {
            (S0, "Table 3"): 36,
            (S0, "Table 4"): 36,
            (S0, "Table 5"): 36,
            (S1, "Table 3"): 33,
            (S1, "Table 4"): 33,
            (S1, "Table 5"): 33,
        },
    },
    "ramya.csv": {
        "header": [
            "seed_file",
            "table",
            "block",
            "row",
            "buffer_frames",
            "metric",
            "value",
            "unit",
            "note",
        ],
        "kinds": {
            "seed_file": "seed",
            "table": {"Table 1", "Table 5"},
            "block": "str?",
            "row": "int",
            "buffer_frames": "int",
            "metric": {
                "goodput",
                "avg_rtt",
                "packets_dropped",
                "throughput",
                "rtt",
                "packet_drops",
                "avg_queue_length",
            },
            "value": "float",
            "unit": "str",
            "note": "str?",
        },
        "group": "table",
        # Table 1: 4 rows x 3 metrics; Table 5: 8 rows x 4 metrics
        "expected": {(S2, "Table 1"): 12, (S2, "Table 5"): 32},
    },
    "hstcp_claims.csv": {
        "header": [
            "seed_file",
            "section",
            "quote",
            "quantity",
            "buffer_fraction",
            "value",
            "relation",
            "note",
        ],
        "kinds": {
            "seed_file": "seed",
            "section": "str",
            "quote": "str",
            "quantity": {"utilization", "throughput", "loss_rate"},
            "buffer_fraction": "float?",
            "value": "float?",
            "relation": {">=", "<=", "~", "=", ""},
            "note": "str?",
        },
        "group": "section",
        "expected": {(S3, "Abstract"): 3, (S3, "III.A"): 2, (S3, "IV.A"): 2, (S3, "V"): 3},
    },
    "hstcp_params.csv": {
        "header": ["name", "value", "unit", "seed_file", "section", "quote", "note"],
        "kinds": {
            "name": "str",
            "value": "float",
            "unit": "str",
            "seed_file": "seed",
            "section": "str",
            "quote": "str",
            "note": "str?",
        },
        "group": "section",
        "expected": None,
    },
    "vegas.csv": {
        "header": [
            "seed_file",
            "table",
            "block",
            "row",
            "variant",
            "packet_size_bytes",
            "rtt_ms",
            "buffer_pkts",
            "X",
            "metric",
            "value",
            "unit",
            "note",
        ],
        "kinds": {
            "seed_file": "seed",
            "table": {"Table II", "Table III", "Table IV", "Table V", "Table VI"},
            "block": "str?",
            "row": "int",
            "variant": {"standard", "spacing", ""},
            "packet_size_bytes": "int?",
            "rtt_ms": "float?",
            "buffer_pkts": "int?",
            "X": "float?",
            "metric": {
                "network_delay",
                "network_throughput",
                "network_efficiency",
                "delay_wrt_throughput",
                "bdp",
                "ratio_X",
                "mean_X",
                "buffer_calculated",
                "buffer_rounded",
            },
            "value": "float",
            "unit": "str",
            "note": "str?",
        },
        "group": "table",
        # II, III: 5 rows x 4 metrics; IV: 12 x 4; V: 6 x 2 + 1 mean_X; VI: 12 x 3
        "expected": {
            (S4, "Table II"): 20,
            (S4, "Table III"): 20,
            (S4, "Table IV"): 48,
            (S4, "Table V"): 13,
            (S4, "Table VI"): 36,
        },
    },
}

CHECKS: dict[str, Callable[[str], bool]] = {
    "int": lambda v: is_int(v),
    "int?": lambda v: v == "" or is_int(v),
    "float": lambda v: is_float(v),
    "float?": lambda v: v == "" or is_float(v),
    "str": lambda v: v.strip() != "",
    "str?": lambda v: True,
    "seed": lambda v: SEED_RE.match(v) is not None,
}


def check_file(name: str, spec: dict[str, object], errors: list[str]) -> None:
    path = HERE / name
    if not path.is_file():
        errors.append(f"{name}: missing")
        return
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        rows = list(reader)
    if header != spec["header"]:
        errors.append(f"{name}: header {header} != {spec['header']}")
        return
    kinds = spec["kinds"]
    assert isinstance(kinds, dict)
    counts: Counter[tuple[str, str]] = Counter()
    seen_keys: set[tuple[str, ...]] = set()
    for lineno, raw in enumerate(rows, start=2):
        if len(raw) != len(header):
            errors.append(f"{name}:{lineno}: {len(raw)} fields, expected {len(header)}")
            continue
        rec = dict(zip(header, raw, strict=True))
        for col, kind in kinds.items():
            val = rec[col]
            ok = val in kind if isinstance(kind, set) else CHECKS[kind](val)
            if not ok:
                errors.append(f"{name}:{lineno}: column {col}={val!r} fails {kind!r}")
        key = tuple(v for c, v in rec.items() if c != "note")
        if key in seen_keys:
            errors.append(f"{name}:{lineno}: duplicate record {key}")
        seen_keys.add(key)
        counts[(rec["seed_file"], rec[str(spec["group"])])] += 1
    print(f"{name}: {len(rows)} rows")
    for (seed, grp), n in sorted(counts.items()):
        print(f"  {seed}  {grp:<16} {n:4d}")
    expected = spec["expected"]
    if expected is not None:
        assert isinstance(expected, dict)
        if dict(counts) != expected:
            errors.append(f"{name}: counts {dict(counts)} != expected {expected}")


def check_dumbbell_keys(errors: list[str]) -> None:
    """Row numbers must run 1..n within each (seed, table, block, side) in file order."""
    with (HERE / "dumbbell.csv").open(newline="", encoding="utf-8") as fh:
        recs = list(csv.DictReader(fh))
    last: dict[tuple[str, str, str, str], int] = {}
    for r in recs:
        k = (r["seed_file"], r["table"], r["block"], r["side"])
        if int(r["row"]) != last.get(k, 0) + 1:
            errors.append(f"dumbbell.csv: row numbering broken at {k} row {r['row']}")
        last[k] = int(r["row"])
        want = "DropTail" if r["seed_file"] == S0 else "RED"
        if r["queue"] != want:
            errors.append(f"dumbbell.csv: queue {r['queue']} for {r['seed_file']}")


def main() -> int:
    errors: list[str] = []
    for name, spec in SPECS.items():
        check_file(name, spec, errors)
    if not errors:
        check_dumbbell_keys(errors)
    if errors:
        print(f"FAILED ({len(errors)} problems):")
        for e in errors:
            print("  " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
