"""End to end: Snakemake on a tiny grid with the real ns-2; lint; resume; identical tables."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import yaml

from bufrepro.pipeline import scheduling
from conftest import TINY, copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")
TABLES = ("runs.csv", "summary.csv", "diff.csv", "claims.csv", "coverage.json")


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = copy_repo(tmp_path_factory.mktemp("wf") / "repo")
    (work / "tiny.yaml").write_text(yaml.safe_dump(TINY))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    (work / "snakemake.stderr").write_text(proc.stderr)
    return work


def job_counts(log: str) -> dict[str, int]:
    """The 'Job stats' table of a Snakemake dry run as {rule: count}."""
    table = log.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    pairs = (line.split() for line in table.splitlines()[3:])
    return {p[0]: int(p[1]) for p in pairs if len(p) == 2 and p[0] != "total"}


HSTCP_TABLES = ("runs.csv", "summary.csv", "diff.csv", "claims.csv", "model_vs_sim.csv")


def digests(work: Path) -> dict[str, str]:
    out = {}
    for study, names in (("dumbbell", TABLES), ("hstcp", HSTCP_TABLES)):
        tables = work / "results" / study / "tables"
        for t in names:
            out[f"{study}/{t}"] = hashlib.sha256((tables / t).read_bytes()).hexdigest()
    return out


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


def test_tiny_hstcp_end_to_end(tiny_run: Path) -> None:
    study = tiny_run / "results" / "hstcp"
    runs = (study / "tables" / "runs.csv").read_text().splitlines()
    assert len(runs) == 1 + 2 * 2 * 2  # header + queues x fractions x seeds
    for name in ("model.csv", "model_vs_sim.csv", "twoflow_summary.csv", "claims.csv"):
        assert (study / "tables" / name).stat().st_size > 0
    assert json.loads((study / "tables" / "coverage.json").read_text())["published_rows"] > 0
    run = study / "runs" / "s1" / "RED" / "frac0.1" / "seed2"
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv"} <= {p.name for p in run.iterdir()}
    assert not list(study.glob("**/bottleneck.fifo")) and not list(study.glob("**/*.tr*"))
    assert (study / "twoflow" / "under" / "seed1" / "timeseries.tsv").exists()
    html = (tiny_run / "report" / "index.html").read_text()
    assert "Model vs sim" in html and "HighSpeed TCP" in html


def _ran(work: Path, study: str) -> int:
    """How many runs the batch jobs of the last workflow run actually made (not current)."""
    logs = (work / "results" / study / "logs" / "run_batch").glob("*.log")
    return sum(line.startswith("ran ") for log in logs for line in log.read_text().splitlines())


def test_rerun_does_nothing_then_resumes_one_run(tiny_run: Path) -> None:
    proc = snakemake(tiny_run, "--cores", "1", "--configfile", "tiny.yaml", "-n")
    assert "Nothing to be done" in proc.stdout + proc.stderr
    # An interrupted sweep: one run never got its metrics, nothing was aggregated yet.
    victim = tiny_run / "results/dumbbell/runs/DropTail/plr0.05/bw0.5/buf5/seed1/metrics.tsv"
    before = victim.read_bytes()
    victim.unlink()
    (tiny_run / "results/dumbbell/batches/b0000.tsv").unlink()
    shutil.rmtree(tiny_run / "results" / "dumbbell" / "tables")
    proc = snakemake(tiny_run, "--cores", "1", "--configfile", "tiny.yaml", "-n")
    counts = job_counts(proc.stdout + proc.stderr)
    assert counts.get("run_batch") == 1
    for log in (tiny_run / "results/dumbbell/logs/run_batch").glob("*.log"):
        log.unlink()
    proc = snakemake(tiny_run, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert victim.read_bytes() == before
    assert _ran(tiny_run, "dumbbell") == 1  # the batch's other runs were current


def test_a_grown_grid_runs_only_the_new_runs(tmp_path: Path) -> None:
    work = copy_repo(tmp_path / "repo")
    small = {
        "studies": ["dumbbell"],
        "simulators": TINY["simulators"],
        "dumbbell": {**TINY["dumbbell"], "seeds": [1]},
    }
    (work / "a.yaml").write_text(yaml.safe_dump(small))
    proc = snakemake(work, "--cores", "2", "--configfile", "a.yaml")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert _ran(work, "dumbbell") == 6
    small["dumbbell"]["seeds"] = [1, 2]
    small["dumbbell"]["grid"] = {**TINY["dumbbell"]["grid"], "buffer": [5, 15, 50, 20]}
    (work / "a.yaml").write_text(yaml.safe_dump(small))
    proc = snakemake(work, "--cores", "2", "--configfile", "a.yaml")
    assert proc.returncode == 0, proc.stderr[-3000:]
    # 2 queues x 4 buffers x 2 seeds = 16 runs, of which the first sitting made 6.
    assert _ran(work, "dumbbell") == 10
    assert len((work / "results/dumbbell/tables/runs.csv").read_text().splitlines()) == 17


def test_same_config_same_tables(tiny_run: Path, tmp_path: Path) -> None:
    other = copy_repo(tmp_path / "repo")
    (other / "tiny.yaml").write_text(yaml.safe_dump(TINY))
    proc = snakemake(other, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert digests(other) == digests(tiny_run)


def test_lint_is_clean(tiny_run: Path) -> None:
    proc = snakemake(tiny_run, "--lint", "--configfile", "tiny.yaml")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Congratulations" in out, out[-3000:]


def test_the_local_run_drops_snakemakes_rate_limit(tiny_run: Path) -> None:
    # pipeline/scheduling.py: the Snakefile's onstart hook ran and took the limit off.
    assert scheduling.DROPPED in (tiny_run / "snakemake.stderr").read_text()


def test_verify_passes_a_sample_of_the_tree(tiny_run: Path) -> None:
    """CI verifies a sample of a workflow's tree (issue 42): re-simulated, byte-identical."""
    from bufrepro.cli import main
    from bufrepro.pipeline import verify

    results = tiny_run / "results"
    assert main(["verify", str(results), "--sample", "0.5", "--seed", "7"]) == 0
    record = verify.read_record(results)
    assert record and record["runs_checked"] >= 1 and record["same"] == record["runs_checked"]
