"""The ns-3 link's traffic on tiny real runs: spread RTTs, ECN on the AQMs, and BBR."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from link_helpers import fixed, link

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration
from bufrepro.pipeline.experiments import notes, plan
from conftest import merged


def config(name: str, block: dict[str, Any]) -> dict[str, Any]:
    """The validated config of one experiment, its ns-3 programs the repository's (the tests
    run in a scratch folder)."""
    ns3 = {"ns3": {"prefix": str(REPO_ROOT / ".ns3")}}
    return configuration.validate(
        merged({"studies": [], "experiments": {name: block}, "backends": ns3})
    )


def _mean(frame: object, column: str) -> float:
    return float(frame[column].mean())  # type: ignore[index]


def test_spread_rtts_on_ns3_favour_the_short_flows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4 SACK flows through a DropTail FIFO: with their RTTs spread 0.8 (8-72 ms) the short-RTT
    flows take more of the link than the long ones (TCP's RTT unfairness), so the Jain index
    falls below the equal-RTT case's; the link stays as busy."""
    monkeypatch.chdir(tmp_path)
    jain, util = {}, {}
    for spread in (0, 0.8):
        name = f"ns3-spread-{spread:g}"
        block = link(flows={"count": 4, "rtt_spread": spread}, backend="ns3")
        cfg = config(name, block)
        lk = plan.resolve(cfg, name).setup.link
        assert (max(lk.flow_rtts_s()) - min(lk.flow_rtts_s()) > 0.06) == (spread > 0)
        runs = fixed(cfg, name, [("DropTail", 20)])
        jain[spread], util[spread] = _mean(runs, "jain_index"), _mean(runs, "link_utilisation")
    assert jain[0.8] < jain[0] - 0.05, jain
    assert abs(util[0.8] - util[0]) < 0.05, util


def test_ecn_codel_marks_where_it_dropped_and_the_answer_names_what_cannot_mark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CoDel, PIE and FQ-CoDel with ECN-capable TCP mark instead of dropping (2 flows, 30
    packets: their queue drops fall at least tenfold); with ECN on, the answer's notes say that
    DropTail does not mark and that a CBR flow is not ECN-capable; the AQM's words say ECN on."""
    monkeypatch.chdir(tmp_path)
    for queue in ("CoDel", "PIE", "FQ-CoDel"):
        drops = {}
        for ecn in (False, True):
            name = f"ns3-ecn-{queue.lower()}-{str(ecn).lower()}"
            cfg = config(name, link(flows={"count": 2}, queues=[queue], aqm={"ecn": ecn}))
            drops[ecn] = _mean(fixed(cfg, name, [(queue, 30)]), "queue_loss_rate")
        assert drops[False] > 0.005 and drops[True] < drops[False] / 10, (queue, drops)
    name = "ns3-ecn-cbr"
    block = link(flows={"count": 2, "cbr": "500kbit"}, queues=["CoDel"], aqm={"ecn": True})
    exp = plan.resolve(config(name, block), name)
    said = exp.kind.describe(exp.setup)
    assert "not ECN-capable" in " ".join(notes.ecn_notes("CoDel", said))
    assert "does not mark" in " ".join(notes.ecn_notes("DropTail", said))
    assert "ECN on" in said["queue_notes"]["CoDel"]
    quiet = exp.kind.describe(plan.resolve(config("q", link(queues=["CoDel"])), "q").setup)
    assert notes.ecn_notes("CoDel", quiet) == notes.ecn_notes("DropTail", quiet) == []


def test_bbr_keeps_its_queue_short_where_cubic_fills_the_buffer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One flow, a 100-packet FIFO (6 BDP) at 5 Mbit/s, 40 ms: CUBIC (loss-based) fills the
    buffer, BBR (ns3::TcpBbr, paced) keeps at most about 1 BDP queued (its 2 BDP in flight),
    so its mean queueing delay stays under 1.5 base RTTs where CUBIC's exceeds 3; both fill
    the link."""
    monkeypatch.chdir(tmp_path)
    delay = {}
    for cc in ("cubic", "bbr"):
        name = f"ns3-{cc}"
        cfg = config(name, link(flows={"cc": cc}, backend="ns3"))
        exp = plan.resolve(cfg, name)
        assert exp.setup.link.cc.label.startswith(("CUBIC (ns3", "BBR (ns3"))
        said = exp.kind.describe(exp.setup)["cc_note"]
        assert said.startswith(f"{cc.upper()} ran on ns3 as ") and "Spang et al. 2021" in said
        runs = fixed(cfg, name, [("DropTail", 100)])
        delay[cc] = _mean(runs, "qdelay_ms_mean")
        assert _mean(runs, "link_utilisation") > 0.9, (cc, runs)
    assert delay["bbr"] < 60 < 120 < delay["cubic"], delay


def test_the_answer_names_the_simulator_of_ns2s_cubic_and_what_ecn_hides() -> None:
    """ns-2's CUBIC is the Linux kernel's, named with its simulator and Spang et al.; with ECN
    an AQM's few loss events get the reason (marks are no loss events), DropTail's do not."""
    exp = plan.resolve(config("c2", link(flows={"cc": "cubic"})), "c2")
    said = exp.kind.describe(exp.setup)
    assert said["cc_note"].startswith("CUBIC ran on ns2 as CUBIC (Agent/TCP/Linux")
    block = link(flows={"count": 2}, queues=["CoDel"], aqm={"ecn": True})
    exp = plan.resolve(config("e2", block), "e2")
    d = exp.kind.describe(exp.setup)
    rec = {"buffer_pkts": 20, "step_above_pkts": 30, "step_below_pkts": 10, "loss_epochs": 0}
    for queue, hides in (("CoDel", True), ("DropTail", False)):
        said = " ".join(notes.notes({**rec, "queue": queue}, d))
        assert "fewer than 10" in said and ("marks are not loss events" in said) == hides
