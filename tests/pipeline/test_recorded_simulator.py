"""Every run's params.json records its simulator: a study's own, a further one, a side run's and
an experiment's (the own/further distinction is the scope's role, not the key's presence); a
run's owner is its scope's, in its run point, its spec and its record alike."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends
from bufrepro.backends.base import RunSpec, write_inputs
from bufrepro.kit import configs
from bufrepro.kit.scope import Scope, of_run
from bufrepro.pipeline import batch, configuration, verify
from bufrepro.pipeline.experiments import plan as experiment_plan
from conftest import TINY, merged

# A link experiment on ns-2 beside the tiny studies (the link kind's smallest block).
LINK = {
    "kind": "link",
    "link": {"rate": "5Mbit", "rtt": "40ms", "loss": "1%"},
    "flows": {"count": 3, "cc": "sack"},
    "run": {"warmup": "1s", "measure": "2s"},
    "seeds": [1, 2],
}


@pytest.fixture(scope="module")
def cfg() -> dict[str, Any]:
    """The tiny dumbbell on ns-2 and ns-3, hstcp (its side runs) and one link experiment."""
    over = configs.merge(
        TINY,
        {
            "studies": ["dumbbell", "hstcp"],
            "simulators": {"dumbbell": ["ns2", "ns3"]},
            "experiments": {"mine": LINK},
        },
    )
    return configuration.validate(merged(over))


def _first_run(cfg: dict[str, Any], chosen: Scope, where: Path) -> tuple[RunSpec, dict[str, Any]]:
    """The scope's first run's spec and the params.json the engine writes for it (rendered, not
    simulated)."""
    if chosen.experiment:
        resolved = experiment_plan.resolve(cfg, chosen.owner)
        simulator, specs = experiment_plan.batch_specs(resolved, "coarse-b0000")
    else:
        simulator, specs = batch.batch_specs(cfg, chosen, "b0000")
    spec = specs[0]
    spec = dataclasses.replace(spec, run_dir=where / spec.run_dir)
    write_inputs(spec, *backends.get(simulator, cfg).scenario(spec))
    params: dict[str, Any] = json.loads((spec.run_dir / "params.json").read_text())
    return spec, params


def test_every_role_records_its_simulator(cfg: dict[str, Any], tmp_path: Path) -> None:
    scopes = batch.scopes(cfg)
    seen = {}
    for chosen in scopes:
        if not chosen.experiment and not batch.batches(cfg, chosen):
            continue  # a side run of no point here (hstcp's twins: none in this grid)
        spec, params = _first_run(cfg, chosen, tmp_path)
        assert params["simulator"] == chosen.simulator, chosen
        # One owner, the scope's (an experiment's too: no experiments/ prefix), and the run in
        # the scope's folder.
        assert spec.owner == params["study"] == chosen.owner, chosen
        assert of_run(str(spec.run_dir.relative_to(tmp_path / "results")), scopes) == chosen
        seen[chosen.role] = params["simulator"]
    # One scope of each role, each on its simulator: own and side runs on hstcp's and the
    # dumbbell's ns-2, the further one on ns-3, the experiment on the link kind's default.
    assert seen == {"own": "ns2", "further": "ns3", "side": "ns2", "experiment": "ns2"}


def test_an_experiments_old_record_finds_its_scope(cfg: dict[str, Any]) -> None:
    """A record made when an experiment's runs named their owner experiments/<name>."""
    scopes = batch.scopes(cfg)
    folder = "experiments/mine/runs/DropTail/b10/seed1"
    meta = {"simulator": "ns2"}
    for owner in ("mine", "experiments/mine"):
        found = verify.scope_of(scopes, {"study": owner}, meta, folder)
        assert found.experiment and found.owner == "mine"
