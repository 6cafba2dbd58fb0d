"""`snakemake --profile profiles/slurm` on a one-node SLURM cluster reproduces the quick tables.

Opt-in (BUFREPRO_TEST_SLURM=1): needs root; tests/infra/slurm.sh installs Debian's slurm and
munge if missing, starts munge + slurmctld + slurmd (every PID recorded) and stops them again,
whatever the test's outcome. The quick profile runs in a copy of the repo through the profile;
its tables must equal a local run's byte for byte, and the simulations must be batched into a
few cluster jobs (one per batch of runs). Prints the cluster run's time vs the local one and
the job count.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "infra"))
import repro

pytestmark = [
    pytest.mark.slurm,
    pytest.mark.skipif(
        os.environ.get("BUFREPRO_TEST_SLURM") != "1",
        reason="SLURM test: set BUFREPRO_TEST_SLURM=1 (root; starts munge/slurmctld/slurmd)",
    ),
]

SCRIPT = repro.INFRA / "slurm.sh"
# "Job 12 has been submitted with SLURM jobid 7 (log: .../slurm_logs/rule_run_batch/.../7.log)."
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+) \(log: .*?slurm_logs/([^/]+)/")
# The only rule that goes to the cluster: batches of runs (hstcp's side runs included).
CLUSTER_RULES = {"rule_run_batch"}
BATCHES = re.compile(r"^run_batch\s+(\d+)\s*$", re.MULTILINE)
TOTAL = re.compile(r"^total\s+(\d+)\s*$", re.MULTILINE)


def slurm_sh(action: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), action], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture
def slurm_cluster() -> Iterator[None]:
    """A running one-node cluster; its daemons are stopped (by PID) when the test ends."""
    try:
        started = slurm_sh("start")
        if started.returncode != 0:
            pytest.fail(f"slurm.sh start failed:\n{started.stdout}{started.stderr}")
        yield
    finally:
        stopped = slurm_sh("stop")
        if stopped.returncode != 0:
            print(f"slurm.sh stop failed:\n{stopped.stdout}{stopped.stderr}", file=sys.stderr)


def test_slurm_profile_reproduces_quick_tables(
    slurm_cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = repro.copy_repo(tmp_path / "slurm")
    cluster = repro.snakemake(
        work,
        tmp_path / "slurm.log",
        "--profile",
        "profiles/slurm",
        "--configfile",
        repro.QUICK,
        *repro.ns2_config(),
        timeout=2400,
    )
    log = cluster.log.read_text(errors="replace")
    assert cluster.returncode == 0, f"SLURM run failed:\n{cluster.tail(60)}"

    submitted = dict(SUBMITTED.findall(log))  # SLURM job id -> rule_NAME
    job_ids = set(submitted)
    kinds = sorted({kind for kind in submitted.values()})
    batches = [jid for jid, kind in submitted.items() if kind == "rule_run_batch"]
    totals = [int(n) for n in TOTAL.findall(log)]
    workflow_jobs = totals[0] if totals else 0
    planned = [int(n) for n in BATCHES.findall(log)]

    local_work, local = repro.run_quick_locally(tmp_path)
    assert local.returncode == 0, f"local quick run failed:\n{local.tail()}"

    with capsys.disabled():
        print(
            f"\n[slurm] quick profile via SLURM {cluster.seconds:.0f} s vs local "
            f"{local.seconds:.0f} s (--cores {repro.cores()}); {len(job_ids)} cluster jobs "
            f"for {workflow_jobs} workflow jobs ({len(batches)} batches of runs); kinds: "
            + ", ".join(kinds)
        )

    assert job_ids, "no 'has been submitted with SLURM jobid' line in the Snakemake log"
    # Light rules (config, aggregation, comparison, figures, report) run on the submit host.
    assert set(kinds) <= CLUSTER_RULES, f"light rules submitted to the cluster: {kinds}"
    # One cluster job per batch of runs (runs_per_job runs each), none per run.
    assert planned and len(batches) == planned[0], (len(batches), planned)
    problems = repro.compare_tables(local_work, work)
    assert not problems, "tables differ between SLURM and local runs:\n" + "\n".join(problems)
