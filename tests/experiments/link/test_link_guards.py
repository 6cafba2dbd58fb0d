"""The link's guard rails before any run: the run's cost against a budget, loss epochs, spread."""

from __future__ import annotations

from pathlib import Path

import pytest
from link_helpers import config, link, searched

from bufrepro import advise
from bufrepro.experiments.link import guards, parsed
from bufrepro.kit.experiment import run_points
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline.experiments import notes, plan


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
    cost = plan.resolve(cfg, "readme").kind.cost(plan.resolve(cfg, "readme").block)
    # 80 runs of 24 s at 833 packets/s: 1.6e6 packets, 16 CPU s (measured: 16.4 at 33660bf)
    assert cost.runs == 80 and 1.5e6 < cost.packets < 1.7e6 and 10 < cost.cpu_s < 25
    assert cost.run_bytes < 100e6
    # the same link on ns-3 (CoDel and its DropTail baseline, 2 seeds): 6x the CPU per packet
    # (measured: 42 runs of 8.4e5 packets took 46-50 CPU s of ns-3 and parsers)
    block = {"link": {"rate": "10Mbit", "rtt": "40ms", "loss": "1%"}, "queues": ["CoDel", "PIE"]}
    block |= {"seeds": [1, 2], "buffers": {"coarse": 5, "refine": 2}}
    aqm = plan.resolve(config("aqm", block), "aqm")
    on_ns3 = aqm.kind.cost(aqm.block)
    assert on_ns3.runs == 42 and 40 < on_ns3.cpu_s < 60, on_ns3


def test_a_raised_budget_lets_a_costly_link_through() -> None:
    cost = guards.estimate(1e9, 1500, 100.0, 90.0, 1e4, 10, 80)
    assert guards.budget_problems(cost, "3600s", "2000MB", "k")
    assert not guards.budget_problems(cost, "1e6s", "2000MB", "k")


def test_the_auto_window_holds_ten_loss_cycles_of_a_large_bdp_flow() -> None:
    # 50 Mbit/s, 200 ms, 1 flow: BDP 833 packets, a cycle of 417 RTTs; 500 RTTs held < 2 cycles.
    cfg = config("big", {"link": {"rate": "50Mbit", "rtt": "200ms"}, "budget": {"cpu": "1e5s"}})
    lk = parsed.read(plan.resolve(cfg, "big").block, "big")
    assert lk.duration_s - lk.warmup_s == pytest.approx(10 * 833.3 / 2 * 0.2, rel=0.01)
    # a small BDP keeps the old floor: max(10 s, 500 RTTs)
    assert guards.measure_for_epochs(0.04, 33.3, 3, 0.01) < 10
    # random loss shortens the cycle: Mathis's window 1.22 / sqrt(1%) = 12 packets
    assert guards.sawtooth_rtts(833.3, 1, 0.01) == pytest.approx(guards.MATHIS_K / 0.1 / 2)


def test_the_rtt_spread_is_even_with_the_base_rtt_as_its_mean() -> None:
    cfg = config("spread", link(rtt="80ms", flows={"count": 5, "rtt_spread": 0.3}))
    lk = parsed.read(plan.resolve(cfg, "spread").block, "spread")
    rtts = lk.flow_rtts_s()
    assert rtts[0] == pytest.approx(0.056) and rtts[-1] == pytest.approx(0.104)
    assert sum(rtts) / len(rtts) == pytest.approx(0.08)
    lab_cfg = config("lab", link(flows={"count": 5, "rtt_spread": 0}))
    lab = parsed.read(plan.resolve(lab_cfg, "lab").block, "lab")
    assert set(lab.flow_rtts_s()) == {lab.rtt_s} and lab.spread_bottleneck_s == lab.bottleneck_s


@pytest.fixture
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _answer_notes(name: str, block: dict[str, object]) -> list[str]:
    cfg = config(name, block)
    _, recs = searched(cfg, name)
    d = plan.resolve(cfg, name).kind.describe(plan.resolve(cfg, name).setup)
    return notes.notes(recs.to_dict("records")[0], d)


@pytest.mark.usefixtures("ns_available", "_in_tmp")
def test_a_pick_at_the_largest_buffer_says_the_knee_may_lie_beyond() -> None:
    # 5 Mbit/s, 40 ms, 1 flow (BDP 16.7 packets) searched only up to 6 packets
    block = link(buffers={"min": "2pkt", "max": "6pkt", "coarse": 3, "refine": 0})
    said = _answer_notes("edge", block)
    assert any("the largest buffer tested: the knee may lie beyond it" in n for n in said), said


@pytest.mark.usefixtures("ns_available", "_in_tmp")
def test_a_window_below_bdp_plus_buffer_is_named_as_the_limit() -> None:
    block = link(flows={"count": 1, "window": 8}, buffers={"coarse": 3, "refine": 0})
    said = _answer_notes("win", block)
    assert any(n.startswith("the window is the limit: 1 flows x window_ 8") for n in said), said
    assert any("standing queue set by: the window" in n for n in said), said


@pytest.mark.usefixtures("ns_available", "_in_tmp")
def test_a_short_window_of_a_large_bdp_flow_says_it_holds_few_loss_epochs() -> None:
    # 20 Mbit/s, 200 ms: BDP 333 packets, a loss cycle of 167 RTTs = 33 s; 20 s hold < 1
    block = link(rate="20Mbit", rtt="200ms", buffers={"coarse": 3, "refine": 0}, measure="20s")
    said = _answer_notes("few", block)
    assert any("fewer than 10" in n and "--measure" in n for n in said), said


def test_synchronised_losses_are_named_as_driving_the_pick() -> None:
    cfg = config("sync", link(flows={"count": 4, "rtt_spread": 0}))
    d = plan.resolve(cfg, "sync").kind.describe(plan.resolve(cfg, "sync").setup)
    rec = {
        "queue": "DropTail",
        "buffer_pkts": 12,
        "step_below_pkts": 8,
        "step_above_pkts": 16,
        "loss_epochs": 40.0,
        "rule_buffer_pkts": 8,
        "rule_loss_epochs": 40.0,
        "rule_sync_epoch_share": 0.8,
        "rule_sync_rate_mean": 0.7,
        "link_loss_rate": 0.0,
        "queue_loss_rate": 0.01,
        "qdelay_ms_mean": 3.0,
    }
    said = notes.notes(rec, d)
    assert any(n.startswith("synchronisation at 8 pkts (the tested buffer nearest") for n in said)
    assert any("in 80% of 40 loss events" in n for n in said), said
    assert any("synchronised losses drive this pick" in n and "--rtt-spread" in n for n in said)
    desync = notes.notes({**rec, "rule_sync_epoch_share": 0.2}, d)
    assert not any("drive this pick" in n for n in desync), desync
    lossy = notes.notes({**rec, "link_loss_rate": 0.01, "queue_loss_rate": 0.001}, d)
    assert "standing queue set by: the random loss" in lossy[-1], lossy


def test_an_aqm_target_below_one_packets_time_is_warned_and_droptail_joins_on_ns3() -> None:
    # 1 Mbit/s: a 1500 B packet takes 12 ms, above CoDel's 5 ms and below PIE's 15 ms
    block = link(rate="1Mbit", rtt="100ms", queues=["CoDel", "PIE"], backend="ns3")
    cfg = config("aqm", block)
    exp = plan.resolve(cfg, "aqm")
    kind, blk = exp.kind, exp.setup
    assert kind.series(blk) == ["CoDel", "PIE", "DropTail"]
    d = kind.describe(blk)
    rec = {
        "buffer_pkts": 12,
        "step_below_pkts": 8,
        "step_above_pkts": 16,
        "link_loss_rate": 0.0,
        "queue_loss_rate": 0.01,
        "qdelay_ms_mean": 3.0,
    }
    codel = notes.notes({**rec, "queue": "CoDel"}, d)
    assert any("above CoDel's target of 5 ms" in n for n in codel), codel
    assert "standing queue set by: the AQM (CoDel's target 5 ms" in codel[-1]
    assert not any("target of" in n for n in notes.notes({**rec, "queue": "PIE"}, d))
    base = notes.notes({**rec, "queue": "DropTail"}, d)
    assert base[0].startswith("DropTail on ns-3: the baseline") and "the buffer" in base[-1]


def test_scaled_aqm_targets_cover_a_packets_time_and_reach_the_program() -> None:
    # 1 Mbit/s: 12 ms a packet; scaled targets are 1.5 packets = 18 ms (CoDel), PIE's 15 -> 18
    block = link(rate="1Mbit", rtt="100ms", queues=["CoDel"], aqm={"targets": "scaled"})
    cfg = config("scaled", block)
    exp = plan.resolve(cfg, "scaled")
    kind, blk = exp.kind, exp.setup
    point = run_points("scaled", kind, [("CoDel", 10)], [1])[0]
    args = kind.declarations()["ns3"].params(blk, point)
    assert "Target=18ms" in args["queueAttr"].split(",")
    # the interval raised as much as the target (5 -> 18 ms): 100 -> 113 ms (CAKE's rule)
    assert "Interval=113ms" in args["queueAttr"].split(",")
    d = kind.describe(blk)
    assert d["aqm_targets"]["CoDel"] == pytest.approx(18.0)
    assert d["aqm_targets"]["PIE"] == pytest.approx(18.0)
    rec = {
        "queue": "CoDel",
        "buffer_pkts": 12,
        "step_below_pkts": 8,
        "step_above_pkts": 16,
        "link_loss_rate": 0.0,
        "queue_loss_rate": 0.01,
        "qdelay_ms_mean": 3.0,
    }
    assert not any("above CoDel's target" in n for n in notes.notes(rec, d))
    assert "target 18 ms" in d["queue_notes"]["CoDel"]
    rfc = config("rfc", {**block, "aqm": {"targets": "rfc"}})
    rfc_point = run_points("rfc", kind, [("CoDel", 10)], [1])[0]
    rfc_args = kind.declarations()["ns3"].params(plan.resolve(rfc, "rfc").setup, rfc_point)
    assert "Target=5ms" in rfc_args["queueAttr"].split(",")
