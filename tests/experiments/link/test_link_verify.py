"""`bufrepro verify` rebuilds an experiment's runs by the one spec factory, as a study's: two
tiny link runs on ns-2 are identical when untouched, and an edited metric is caught."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from link_helpers import config, link, run_points_now

from bufrepro.kit.experiment import run_points
from bufrepro.pipeline import verify
from bufrepro.pipeline.experiments import plan

pytestmark = pytest.mark.usefixtures("ns_available")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, Any]]:
    monkeypatch.chdir(tmp_path)
    cfg = config("tiny", link(measure="5s", seeds=[1, 2]))
    kind = plan.resolve(cfg, "tiny").kind
    run_points_now(cfg, "tiny", run_points("tiny", kind, [("DropTail", 4)], [1, 2]))
    results = tmp_path / "results"
    (results / "config.validated.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
    return results, cfg


def test_an_experiments_runs_are_rebuilt_and_an_edit_is_caught(
    tree: tuple[Path, dict[str, Any]],
) -> None:
    results, cfg = tree
    runs = verify.runs_of(results)
    assert len(runs) == 2 and all("experiments" in r.parts for r in runs)
    _, record = verify.verify(cfg, results, 1.0, 1)
    assert record["same"] == 2 and not record["refused"], record
    metrics = runs[0] / "metrics.tsv"
    lines = metrics.read_text(encoding="utf-8").splitlines()
    name, _, value = lines[-1].partition("\t")
    lines[-1] = f"{name}\t{value}1"
    metrics.write_text("\n".join(lines) + "\n", encoding="utf-8")
    outcome = verify.verify_run(cfg, runs[0], results / "scratch", "edited")
    assert outcome.status == "differs", outcome
