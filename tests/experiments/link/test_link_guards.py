"""The link's guard rails before any run: the run's cost against a budget, loss epochs, spread."""

from __future__ import annotations

from pathlib import Path

import pytest
from link_helpers import config, link

from bufrepro import advise
from bufrepro.experiments.link import guards, scenario
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline.experiments import plan


def test_a_huge_link_is_refused_before_any_run_naming_the_flag(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    argv = ["--rate", "100Gbit", "--rtt", "500ms", "--flows", "10000", "--name", "guard-huge"]
    assert advise.advise(argv) == 2
    err = capsys.readouterr().err
    assert "--budget-cpu (config key budget.cpu): the 80 runs would simulate about" in err, err
    assert "--budget-memory (config key budget.memory)" in err, err
    assert not Path("experiments/guard-huge.yaml").exists()


def test_the_readme_link_is_well_inside_the_budget() -> None:
    cfg = config("readme", {"link": {"rate": "10Mbit", "rtt": "40ms", "loss": "1%"}})
    cost = plan.kind_of(cfg, "readme").cost(plan.block(cfg, "readme"))
    # 80 runs of 24 s at 833 packets/s: 1.6e6 packets, 16 CPU s (measured: 16.4 at 33660bf)
    assert cost.runs == 80 and 1.5e6 < cost.packets < 1.7e6 and 10 < cost.cpu_s < 25
    assert cost.run_bytes < 100e6


def test_a_raised_budget_lets_a_costly_link_through() -> None:
    cost = guards.estimate(1e9, 1500, 100.0, 90.0, 1e4, 10, 80)
    assert guards.budget_problems(cost, "3600s", "2000MB", "k")
    assert not guards.budget_problems(cost, "1e6s", "2000MB", "k")


def test_the_auto_window_holds_ten_loss_cycles_of_a_large_bdp_flow() -> None:
    # 50 Mbit/s, 200 ms, 1 flow: BDP 833 packets, a cycle of 417 RTTs; 500 RTTs held < 2 cycles.
    cfg = config("big", {"link": {"rate": "50Mbit", "rtt": "200ms"}, "budget": {"cpu": "1e5s"}})
    lk = scenario.read(plan.block(cfg, "big"), "big")
    assert lk.duration_s - lk.warmup_s == pytest.approx(10 * 833.3 / 2 * 0.2, rel=0.01)
    # a small BDP keeps the old floor: max(10 s, 500 RTTs)
    assert guards.measure_for_epochs(0.04, 33.3, 3, 0.01) < 10
    # random loss shortens the cycle: Mathis's window 1.22 / sqrt(1%) = 12 packets
    assert guards.sawtooth_rtts(833.3, 1, 0.01) == pytest.approx(guards.MATHIS_K / 0.1 / 2)


def test_the_rtt_spread_is_even_with_the_base_rtt_as_its_mean() -> None:
    cfg = config("spread", link(rtt="80ms", flows={"count": 5, "rtt_spread": 0.3}))
    lk = scenario.read(plan.block(cfg, "spread"), "spread")
    rtts = lk.flow_rtts_s()
    assert rtts[0] == pytest.approx(0.056) and rtts[-1] == pytest.approx(0.104)
    assert sum(rtts) / len(rtts) == pytest.approx(0.08)
    lab_cfg = config("lab", link(flows={"count": 5, "rtt_spread": 0}))
    lab = scenario.read(plan.block(lab_cfg, "lab"), "lab")
    assert set(lab.flow_rtts_s()) == {lab.rtt_s} and lab.spread_bottleneck_s == lab.bottleneck_s
