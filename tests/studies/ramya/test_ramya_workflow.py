"""End to end: Snakemake on a tiny ramya grid with the real ns-2 (runs, tables, series, report)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml
from ramya_tiny import TINY

from conftest import copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")


def test_tiny_grid_end_to_end(tmp_path: Path) -> None:
    work = copy_repo(tmp_path / "repo")
    (work / "tiny.yaml").write_text(yaml.safe_dump(TINY))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    tables = work / "results" / "ramya" / "tables"
    diff = pd.read_csv(tables / "diff.csv")
    # Counterparts: Table 1 at 10 and 100 frames, Table 5 at 1 and 12 frames.
    assert len(diff) == 44 and diff["has_counterpart"].sum() == 14
    notes = pd.read_csv(tables / "notes.csv")
    assert {"which reading fits which table", "OMNeT++/INET vs ns-2"} <= set(notes["section"])
    series = pd.read_csv(tables / "queue_series.csv")
    assert set(series["buffer"]) == {10, 100} and set(series["seed"]) == {1}
    html = (work / "report" / "index.html").read_text()
    assert "Notes" in html and "which reading fits which table" in html
    run = work / "results/ramya/runs/latency/Newreno/bw0.5/rwnd102400/d1/buf10/seed1"
    names = {p.name for p in run.iterdir()}
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv", "queue.tr"} <= names
    assert not {"out.tr", "rtt.tr", "ping.tr"} & names  # temporary unless keep_traces
    for figure in ("table1", "table5", "ping_rtt_vs_buffer", "queue_over_time", "rwnd_remedy"):
        assert (work / "results" / "ramya" / "figures" / f"{figure}.png").stat().st_size > 0
