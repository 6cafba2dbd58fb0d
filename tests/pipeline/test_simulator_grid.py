"""A further simulator's own grid values and seeds (config key simulator_grid)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bufrepro.kit.configs import ConfigError
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration, plan


def _points(cfg: dict[str, Any], study: str, backend: str) -> list[Any]:
    return [p for b in plan.batches(cfg, study, backend) for p in b]


def test_the_default_runs_the_dumbbells_grid_on_ns3_under_eight_queues_at_five_seeds() -> None:
    cfg = configuration.load()
    ns2, ns3 = _points(cfg, "dumbbell", ""), _points(cfg, "dumbbell", "ns3")
    assert len(ns2) == 2 * 3 * 3 * 11 * 10  # the grid's ten seeds on ns-2, as before
    assert len(ns3) == 8 * 3 * 3 * 11 * 5
    assert {p.seed for p in ns3} == {1, 2, 3, 4, 5}
    # every ns-2 cell is run on ns-3, under each of the five queues and the three scaled AQMs
    cells = {tuple(v for k, v in p.values if k != "queue") for p in ns3}
    assert cells == {tuple(v for k, v in p.values if k != "queue") for p in ns2}
    five = {"DropTail", "RED", "CoDel", "PIE", "FQ-CoDel"}
    scaled = {"CoDel-scaled", "PIE-scaled", "FQ-CoDel-scaled"}
    assert {p.get("queue") for p in ns3} == five | scaled


def test_the_default_runs_hstcp_on_ns3_at_the_claims_cells_of_the_scaled_scenario() -> None:
    cfg = configuration.load()
    assert plan.other_simulators(cfg, "hstcp") == ["ns3"]
    ns3 = _points(cfg, "hstcp", "ns3")
    assert {p.get("scenario") for p in ns3} == {"s1_50mbps"}
    assert {p.get("queue") for p in ns3} == {"DropTail", "CoDel", "PIE", "FQ-CoDel"}
    fracs = {round(float(p.get("buffer_frac")), 4) for p in ns3}
    assert fracs >= {0.1, 0.2} and len(fracs) == 4  # both BDP axes
    assert {p.seed for p in ns3} == {1, 2, 3, 4, 5}
    assert len(ns3) == 4 * 4 * 5
    # ns-2 never runs the scaled scenario: the paper's grid and claims stay s1 and s2.
    assert {p.get("scenario") for p in _points(cfg, "hstcp", "")} == {"s1", "s2"}
    assert cfg["hstcp"]["scenarios"]["s1_50mbps"]["bottleneck_mbps"] == 50


def test_the_ns3_hstcp_config_runs_the_claims_cells_only() -> None:
    cfg = configuration.load(REPO_ROOT / "config" / "ns3-hstcp.yaml")
    ns3 = _points(cfg, "hstcp", "ns3")
    fracs = {(p.get("scenario"), round(float(p.get("buffer_frac")), 4)) for p in ns3}
    # 0.1 and 0.2 of the R1-R2 BDP, and of the flows' BDP (s1: / 0.83, s2: / 0.22)
    assert {f for s, f in fracs if s == "s1"} >= {0.1, 0.2}
    assert len({f for s, f in fracs if s == "s1"}) == 4 and len({f for s, f in fracs}) <= 8
    assert {p.seed for p in ns3} == {1, 2, 3, 4, 5}
    assert len(ns3) == 2 * 5 * 4 * 5  # scenarios x queues x fractions x seeds
    assert len(_points(cfg, "dumbbell", "ns3")) == 3960  # the default's ns-3 runs stay


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        (
            {"dumbbell": {"ns3": {"queue": ["RED"]}}},
            "config key simulator_grid.dumbbell.ns3.queue: not allowed; allowed: "
            "['plr', 'bottleneck_mbps', 'buffer', 'seeds'] (queues: simulator_queues.dumbbell.ns3)",
        ),
        (
            {"dumbbell": {"ns3": {"buffer_pkts": [5]}}},
            "config key simulator_grid.dumbbell.ns3.buffer_pkts: not allowed",
        ),
        (
            {"dumbbell": {"ns2": {"seeds": [1]}}},
            "config key simulator_grid.dumbbell.ns2: ns2 is the study's own backend, whose grid "
            "is config key dumbbell.grid",
        ),
    ],
)
def test_a_bad_simulator_grid_fails_naming_the_key(
    tmp_path: Path, grid: dict[str, Any], message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"simulator_grid": grid}), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        configuration.load(path)
    assert message in str(err.value)
