"""End to end: Snakemake on a tiny hstcp grid with real ns-2 (runs, two flows, model, report)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import TINY, copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")


def test_tiny_hstcp_end_to_end(tmp_path: Path) -> None:
    work = copy_repo(tmp_path / "repo")
    tiny = {"studies": ["hstcp"], "hstcp": TINY["hstcp"]}
    (work / "tiny.yaml").write_text(yaml.safe_dump(tiny))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    study = work / "results" / "hstcp"
    runs = (study / "tables" / "runs.csv").read_text().splitlines()
    assert len(runs) == 1 + 2 * 2 * 2  # header + queues x fractions x seeds
    for name in ("model", "model_vs_sim", "twoflow_runs", "twoflow_summary", "claims"):
        assert (study / "tables" / f"{name}.csv").stat().st_size > 0
    assert json.loads((study / "tables" / "coverage.json").read_text())["published_rows"] > 0
    # compare() read the two-flow summary (STUDY.rule_tables): its check is among the claims'.
    claims = pd.read_csv(study / "tables" / "claims.csv").set_index(["claim", "scope"])
    fairness = claims.loc[("buffer_reduces_rtt_unfairness", "DropTail")]
    assert fairness["comparisons"] == 2  # s1's Jain index, and the two flows
    run = study / "runs" / "s1" / "RED" / "frac0.1" / "seed2"
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv"} <= {p.name for p in run.iterdir()}
    assert not list(study.glob("**/bottleneck.fifo")) and not list(study.glob("**/*.tr*"))
    assert (study / "twoflow" / "under" / "seed1" / "timeseries.tsv").exists()
    for figure in ("fig3_droptail_s1", "fig5_twoflow_under", "loss_vs_buffer"):
        assert (study / "figures" / f"{figure}.png").stat().st_size > 0
    html = (work / "report" / "index.html").read_text()
    assert "Model vs sim" in html and "HighSpeed TCP" in html
