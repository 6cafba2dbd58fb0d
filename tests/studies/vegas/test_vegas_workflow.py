"""End to end: Snakemake on a tiny vegas grid with the patched ns-2 (runs, tables, report)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml
from vegas_tiny import TINY

from conftest import copy_repo, snakemake


@pytest.mark.usefixtures("patched_ns")
def test_tiny_grid_end_to_end(tmp_path: Path) -> None:
    work = copy_repo(tmp_path / "repo")
    (work / "tiny.yaml").write_text(yaml.safe_dump(TINY))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    tables = work / "results" / "vegas" / "tables"
    runs = pd.read_csv(tables / "runs.csv")
    assert len(runs) == (2 * 2 + 2) * 2  # (packet 2 variants x 2 sizes + rtt 2) x 2 seeds
    diff = pd.read_csv(tables / "diff.csv")
    # Counterparts: Tables II-III at 256 and 512 B (4 metrics each), Table IV at 60 and 120 ms,
    # and all 49 values of Tables V-VI.
    assert diff["has_counterpart"].sum() == 2 * 2 * 4 + 2 * 4 + 49
    notes = pd.read_csv(tables / "notes.csv")
    assert {"wireless IPv6 / HMIPv6 vs ns-2.35", "how the seeds spread"} <= set(notes["section"])
    assert (tables / "bdp.csv").exists() and (tables / "throughput_series.csv").exists()
    build = (work / "results" / "ns2" / "ns-patched.json").read_text()
    assert str(TINY["backends"]["ns2"]["prefix"]) in build
    html = (work / "report" / "index.html").read_text()
    assert "ns-2.35+bufrepro patches" in html and "TCP Vegas" in html
    run = work / "results/vegas/runs/packet/spacing/pkt512/rtt108/buf50/start12/seed1"
    names = {p.name for p in run.iterdir()}
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv", "series.tsv"} <= names
    assert "out.tr" not in names  # temporary unless keep_traces
    for figure in ("packet_size", "rtt", "buffer_ratio", "throughput_over_time"):
        assert (work / "results" / "vegas" / "figures" / f"{figure}.png").stat().st_size > 0
