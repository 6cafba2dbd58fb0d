"""End to end: Snakemake on a tiny dumbbell grid with the real ns-2 (runs, tables, report)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import TINY, copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = copy_repo(tmp_path_factory.mktemp("wf") / "repo")
    tiny = {"studies": ["dumbbell"], "dumbbell": TINY["dumbbell"]}
    (work / "tiny.yaml").write_text(yaml.safe_dump(tiny))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return work


def test_tiny_grid_end_to_end(tiny_run: Path) -> None:
    study = tiny_run / "results" / "dumbbell"
    cov = json.loads((study / "tables" / "coverage.json").read_text())
    assert cov["published_rows"] == 207
    assert cov["rows_with_counterpart"] > 0
    runs = (study / "tables" / "runs.csv").read_text().splitlines()
    assert len(runs) == 1 + 2 * 3 * 2  # header + queues x buffers x seeds
    html = (tiny_run / "report" / "index.html").read_text()
    assert "data:image/png;base64," in html and "Assumptions" in html
    run = study / "runs" / "RED" / "plr0.05" / "bw0.5" / "buf15" / "seed2"
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv"} <= {p.name for p in run.iterdir()}
    assert not (run / "out.tr").exists()  # traces are temporary unless keep_traces
    for figure in ("delay_vs_buffer", "throughput_vs_buffer", "delay_vs_throughput"):
        assert (study / "figures" / f"{figure}.png").stat().st_size > 0
