"""The generic per-study stages are one rule each with a {study} wildcard, not a rule per study."""

from __future__ import annotations

from pathlib import Path

from conftest import copy_repo, snakemake

# rules/simulators.smk, rules/readings.smk, rules/queues.smk: one rule each, whatever the studies.
GENERIC = (
    "aggregate_metrics_further",
    "compare_simulators",
    "screen_sensitivity",
    "calibrate_readings",
    "confirm_readings",
    "judge_readings",
    "judge_claims_calibrated",
    "judge_queues",
    "plot_queues",
)


def test_each_generic_stage_is_one_rule_for_every_study(tmp_path: Path) -> None:
    """The quick profile selects four studies, two on ns-3 with today's queues: still one rule
    per stage, and none named after a study."""
    work = copy_repo(tmp_path / "repo")
    listed = snakemake(work, "--list-rules", "--configfile", "config/quick.yaml")
    assert listed.returncode == 0, listed.stderr[-3000:]
    names = set(listed.stdout.split())
    assert set(GENERIC) <= names
    per_study = [n for n in names for g in GENERIC if n.startswith(f"{g}_")]
    assert per_study == [], per_study
