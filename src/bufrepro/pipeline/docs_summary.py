"""A reproduction's verdicts and counts as one JSON file the docs quote (docs/data/)."""

from __future__ import annotations

import datetime
import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import summary


def _counts(frame: pd.DataFrame, column: str) -> dict[str, int]:
    """How many rows carry each verdict of the vocabulary (summary's counts)."""
    return summary.counts(frame[column]) if column in frame else {}


def cross_sim(tables: Path) -> dict[str, dict[str, int]]:
    """Per further simulator: cell-metrics both ran, and how many agree, differ, are undecided."""
    path = tables / "cross_sim_counts.csv"
    if not path.is_file():
        return {}
    frame = pd.read_csv(path)
    cols = ["cells", "agree", "differ", "undecided", "not_judged"]
    return {
        str(sim): {c: int(rows[c].sum()) for c in cols}
        for sim, rows in frame.groupby("simulator", sort=True)
    }


def queues(tables: Path) -> dict[str, dict[str, str]]:
    """Today's queues: per paper and claim, each queue's verdict ('sim/queue' -> verdict)."""
    path = tables / "queues_claims.csv"
    if not path.is_file():
        return {}
    frame = pd.read_csv(path, keep_default_na=False)
    out: dict[str, dict[str, str]] = {}
    for _, r in frame.iterrows():
        out.setdefault(f"{r['scope']}.{r['claim']}", {})[f"{r['simulator']}/{r['queue']}"] = str(
            r["verdict"]
        )
    return out


def study(results: Path, name: str) -> dict[str, Any]:
    """One study's part: the summary row's words, claim counts, readings, cross-sim, queues."""
    tables = results / name / "tables"
    row = summary.study_summary(name, tables)
    shown = summary.display_rows([row])[0]
    verdict = tables / "verdict.json"
    readings = json.loads(verdict.read_text(encoding="utf-8")) if verdict.is_file() else {}
    claims = pd.read_csv(tables / "claims.csv", keep_default_na=False)
    return {
        "summary": shown,
        "claims": _counts(claims, "verdict"),
        # the paper's side under our rule only (summary.paper_side), its other rows counted
        "claims_paper": row["claims_paper"],
        "claims_paper_apart": row["claims_paper_apart"],
        "readings": {
            "verdict": str(readings.get("verdict", summary.NO_CALIBRATION)),
            "judged": bool(readings.get("judged", False)),
            "confirmed": int(readings.get("confirmed", 0)),
            "seeds": int(readings.get("seeds", 0)),
            "readings": int(readings.get("readings", 0)),
        },
        "cross_sim": cross_sim(tables),
        "queues": queues(tables),
    }


def commit() -> str:
    """The checkout's commit ('unknown' outside a git checkout)."""
    proc = subprocess.run(
        ["git", "rev-parse", "--short=7", "HEAD"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout.strip() or "unknown"


def build(results: Path, cfg: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The whole file: which reproduction (profile, date of its config, commit), then per study."""
    made = results / "config.validated.yaml"
    stamp = datetime.datetime.fromtimestamp(made.stat().st_mtime, tz=datetime.UTC)
    return {
        "reproduction": {
            "profile": str(cfg.get("profile") or "default"),
            "date": stamp.strftime("%Y-%m-%d"),
            "commit": commit(),
        },
        "studies": {n: study(results, n) for n in names},
    }


def write(results: Path, cfg: Mapping[str, Any], names: Sequence[str], out: Path) -> Path:
    """Write the file (sorted keys, one value a line: a diff reads per verdict)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(build(results, cfg, names), indent=1, sort_keys=True, ensure_ascii=False)
    out.write_text(text + "\n", encoding="utf-8")
    return out
