#!/usr/bin/env python3
"""Check every transcribed published table of this folder against the spec file beside it.

Each <stem>.csv needs a <stem>.spec.yaml (a CSV without one fails):
  header:   the exact header
  kinds:    {column: kind}; kind "int" / "float" must parse and be non-empty, "int?" / "float?"
            may be empty, "str" must be non-empty, "str?" may be empty, "seed" names a seed
            file, and a list holds the allowed values
  group:    the column whose rows are counted per seed file
  expected: {seed file: {group value: rows}} as the papers print them (omit: not checked)
Rows must not repeat (the note column aside). Prints the counts; exits 1 on any problem.

Usage: python published/check_published.py
"""

from __future__ import annotations

import csv
import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
SEED_RE = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")


def _is_float(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _is_int(s: str) -> bool:
    return re.fullmatch(r"-?\d+", s) is not None


CHECKS: dict[str, Callable[[str], bool]] = {
    "int": _is_int,
    "float": _is_float,
    "int?": lambda v: v == "" or _is_int(v),
    "float?": lambda v: v == "" or _is_float(v),
    "str": lambda v: v != "",
    "str?": lambda v: True,
    "seed": lambda v: SEED_RE.match(v) is not None,
}


def _kind_ok(kind: Any, value: str) -> bool:
    if isinstance(kind, list):
        return value in [str(k) for k in kind]
    if kind not in CHECKS:
        raise ValueError(f"unknown kind {kind!r}; allowed: a list or {sorted(CHECKS)}")
    return CHECKS[kind](value)


def check_file(csv_path: Path, spec: Mapping[str, Any], errors: list[str]) -> None:
    """Check one CSV against its spec, appending every problem to `errors`."""
    name = csv_path.name
    with csv_path.open(newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        rows = list(reader)
    if header != spec["header"]:
        errors.append(f"{name}: header {header} != {spec['header']}")
        return
    counts: Counter[tuple[str, str]] = Counter()
    seen: set[tuple[str, ...]] = set()
    for lineno, raw in enumerate(rows, start=2):
        if len(raw) != len(header):
            errors.append(f"{name}:{lineno}: {len(raw)} fields, expected {len(header)}")
            continue
        rec = dict(zip(header, raw, strict=True))
        for col, kind in spec["kinds"].items():
            if not _kind_ok(kind, rec[col]):
                errors.append(f"{name}:{lineno}: column {col}={rec[col]!r} fails {kind!r}")
        key = tuple(v for c, v in rec.items() if c != "note")
        if key in seen:
            errors.append(f"{name}:{lineno}: duplicate record {key}")
        seen.add(key)
        counts[(rec["seed_file"], rec[str(spec["group"])])] += 1
    print(f"{name}: {len(rows)} rows")
    for (seed, grp), n in sorted(counts.items()):
        print(f"  {seed}  {grp:<16} {n:4d}")
    expected = spec.get("expected")
    if expected is not None:
        want = {
            (str(s), str(g)): int(n) for s, groups in expected.items() for g, n in groups.items()
        }
        if dict(counts) != want:
            errors.append(f"{name}: counts {dict(counts)} != expected {want}")


def main() -> int:
    """Check every CSV of this folder; 0 when all pass."""
    errors: list[str] = []
    for csv_path in sorted(HERE.glob("*.csv")):
        spec_path = csv_path.with_suffix(".spec.yaml")
        if not spec_path.is_file():
            errors.append(f"{csv_path.name}: no spec file {spec_path.name}")
            continue
        check_file(csv_path, yaml.safe_load(spec_path.read_text(encoding="utf-8")), errors)
    if errors:
        print(f"FAILED ({len(errors)} problems):")
        for e in errors:
            print("  " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
