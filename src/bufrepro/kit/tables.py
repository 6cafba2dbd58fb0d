"""Read runs' metrics and provenance into tables: runs (one row per run) and summary."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import binding, checks, stats

# Per-run provenance columns: in provenance.json, not in runs.csv (they vary between machines).
PROVENANCE = ("wall_s", "ns_version", "ns_build")
# params.json keys that are the run's inputs, not columns of runs.csv.
INPUTS = ("params", "template")
# The params.json key naming the run's simulator: a column of a further simulator's runs only.
SIMULATOR = "simulator"


def read_metrics(path: Path) -> dict[str, float]:
    """A metrics.tsv ("name<TAB>value" lines), checked: each name once, finite numbers, acct_ok 1.

    An empty value (undefined, e.g. a loss rate with nothing sent) is left out: it never
    becomes a NaN. Raises checks.BadRunFiles naming the file.
    """
    values = checks.parse_metrics(_text(path), str(path))
    if values.get("acct_ok") != 1.0:
        raise checks.BadRunFiles(f"{path}: the accounting check did not pass (no acct_ok 1)")
    return {k: v for k, v in values.items() if v is not None}


def _text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")  # as written: no newline translation
    except (OSError, UnicodeDecodeError) as err:
        raise checks.BadRunFiles(f"{path}: unreadable: {err}") from None


def read_record(run_dir: Path) -> dict[str, Any]:
    """A run's run.json, checked (checks.record_problems); raises checks.BadRunFiles."""
    path = run_dir / "run.json"
    try:
        meta = json.loads(_text(path))
    except json.JSONDecodeError as err:
        raise checks.BadRunFiles(f"{path}: not JSON: {err}") from None
    problems = checks.record_problems(meta)
    if problems:
        raise checks.BadRunFiles(f"{path}: {'; '.join(problems)}")
    return meta  # type: ignore[no-any-return]


def read_run(run_dir: Path, own: str, required: Sequence[str] = ()) -> dict[str, Any]:
    """One row: swept values and seed (params.json), metrics, and ns provenance (run.json).
    `own` is the owner's own simulator: the row names the run's simulator only when it is
    another (a further simulator's run), so an own run's row is the same whether its params.json
    records the simulator (every run since it does) or not (a record made before).

    Both files are checked first (every required metric present and defined, every value in
    its bounds, the rates within the capacity run.json's parser variables give); a run that
    fails raises checks.BadRunFiles naming it and every problem.
    """
    meta = read_record(run_dir)
    text = _bound_text(run_dir, meta)
    values = checks.parse_metrics(text, str(run_dir / "metrics.tsv"))
    capacity = checks.capacity_bps(meta["parser_args"])
    problems = checks.metric_problems(values, capacity, required)
    if problems:
        raise checks.BadRunFiles(f"run {run_dir}: metrics.tsv: {'; '.join(problems)}")
    params = binding.read_params(run_dir, meta)
    row: dict[str, Any] = {k: v for k, v in params.items() if k not in INPUTS}
    if row.get(SIMULATOR, own) == own:
        row.pop(SIMULATOR, None)
    row.update({k: v for k, v in values.items() if v is not None})
    row["ns_version"] = meta.get("simulator_version", "")
    row["ns_build"] = meta.get("simulator_package", "")
    row["wall_s"] = meta["wall_s"]
    return row


def _bound_text(run_dir: Path, meta: dict[str, Any]) -> str:
    """The run's metrics.tsv, the one its run.json recorded (metrics_sha256)."""
    text = _text(run_dir / "metrics.tsv")
    if checks.metrics_digest(text.encode("utf-8")) != meta["metrics_sha256"]:
        raise checks.BadRunFiles(
            f"run {run_dir}: metrics.tsv is not the file this run made (its sha256 differs from "
            "run.json's metrics_sha256: edited or copied by hand?); remake it by running the "
            "workflow again (it reruns a run whose metrics do not match its record), or by hand: "
            f"{meta['command']}"
        )
    return text


def read_params(run_dir: Path) -> dict[str, Any]:
    """A run's params.json, bound to its run.json and its folder (binding.read_params)."""
    return binding.read_params(run_dir, read_record(run_dir))


def read_bound_metrics(run_dir: Path) -> dict[str, float]:
    """A run's metrics.tsv (read_metrics), only if it and params.json are the run's own."""
    meta = read_record(run_dir)
    _bound_text(run_dir, meta)
    binding.read_params(run_dir, meta)
    return read_metrics(run_dir / "metrics.tsv")


def collect(
    metric_files: Sequence[str | Path],
    keys: Sequence[str],
    own: str,
    required: Sequence[str] = (),
) -> pd.DataFrame:
    """All runs of a study as one DataFrame, sorted by its columns' values for stable output
    (own: the study's own simulator, read_run)."""
    rows = [read_run(Path(p).parent, own, required) for p in metric_files]
    if not rows:
        raise ValueError("no runs to collect")
    df = pd.DataFrame(rows)
    lead = [c for c in ("study", *keys, "seed") if c in df]
    rest = sorted(c for c in df.columns if c not in lead)
    return df[lead + rest].sort_values(lead, kind="mergesort").reset_index(drop=True)


def study_tables(
    study: str,
    run_dirs: Sequence[str | Path],
    keys: Sequence[str],
    reported: Sequence[str],
    own: str,
    required: Sequence[str] = (),
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """runs (one row per run, provenance columns included; a simulator column for a further
    simulator's runs, not the study's `own`), summary (per cell and metric) and the study's
    provenance record; every run's files are checked (read_run) with `required`."""
    runs = collect([Path(d) / "metrics.tsv" for d in run_dirs], keys, own, required)
    metric_cols = [m for m in reported if m in runs]
    summary = stats.summarise(runs, list(keys), metric_cols)
    provenance = {
        "study": study,
        "runs": len(runs),
        "seeds": sorted(int(s) for s in runs["seed"].unique()),
        "ns_versions": sorted(str(v) for v in runs["ns_version"].unique()),
        # Which simulator build ran the study: Debian's package and version, or the patched build.
        "ns_builds": sorted(str(v) for v in runs["ns_build"].unique()),
        "ns_wall_s_total": round(float(runs["wall_s"].sum()), 3),
    }
    return runs, summary, provenance


def stable_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """runs.csv's columns: everything but the provenance that differs between machines."""
    return runs[[c for c in runs.columns if c not in PROVENANCE]]
