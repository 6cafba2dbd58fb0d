"""The today's-queues section on small synthetic tables: the papers' claims judged by their own
code on another queue's rows, the "not judged" rule, the sentence per paper, the figure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from matplotlib.figure import Figure

from bufrepro.kit import configs
from bufrepro.pipeline import configuration, plan, queues
from bufrepro.studies.dumbbell import STUDY
from bufrepro.studies.dumbbell.cells import KEYS
from bufrepro.studies.hstcp import queues as hstcp_queues
from conftest import REPO, TINY, merged

AS_PUBLISHED = {"tcp_delay_ms_mean": "tcp_delay_ms", "tcp_throughput_kbps": "tcp_throughput_kbps"}
AQMS = ["DropTail", "RED", "CoDel", "PIE", "FQ-CoDel"]
# The queues ns-3 runs in the judging tests (three compares each).
JUDGED = ["RED", "CoDel", "FQ-CoDel"]


def _cfg(**over: Any) -> dict[str, Any]:
    base = {
        "simulators": {"dumbbell": ["ns2", "ns3"]},
        "simulator_queues": {"dumbbell": {"ns3": AQMS}},
    }
    return configuration.validate(merged(configs.merge(TINY, configs.merge(base, over))))


def _summary(pub: pd.DataFrame, queues_: dict[str, str], n: int) -> pd.DataFrame:
    """A summary whose queue Q has the paper's cell means of the queue queues_[Q] (n seeds)."""
    cells = pub.groupby(list(KEYS), sort=True)[list(AS_PUBLISHED.values())].mean().reset_index()
    rows = [
        {**{k: c[k] for k in KEYS}, "queue": q, "metric": m, "n": n, "mean": c[col], "sd": 1.0}
        for q, like in queues_.items()
        for _, c in cells[cells["queue"] == like].iterrows()
        for m, col in AS_PUBLISHED.items()
    ]
    out = pd.DataFrame(rows)
    out["ci_low"], out["ci_high"] = out["mean"] - 1, out["mean"] + 1
    return out


def _results(tmp: Path, cfg: dict[str, Any], ns3_n: int) -> Path:
    """results/dumbbell/{tables,ns3/tables}: ns-2 runs the paper's cells; on ns-3 every queue
    gets the cells of DropTail's paper (RED's: those of RED's paper)."""
    pub = pd.read_csv(REPO / "published" / "dumbbell.csv")
    own = _summary(pub, {"DropTail": "DropTail", "RED": "RED"}, 10)
    (tmp / "dumbbell" / "ns3" / "tables").mkdir(parents=True)
    (tmp / "dumbbell" / "tables").mkdir()
    own.to_csv(tmp / "dumbbell" / "tables" / "summary.csv", index=False)
    claims = STUDY.claims(cfg["dumbbell"], {"summary": own, "published": pub})
    claims.to_csv(tmp / "dumbbell" / "tables" / "claims.csv", index=False)
    like = {q: ("RED" if q == "RED" else "DropTail") for q in AQMS}
    ns3 = _summary(pub, like, ns3_n)
    ns3.to_csv(tmp / "dumbbell" / "ns3" / "tables" / "summary.csv", index=False)
    ns3[[*KEYS]].drop_duplicates().to_csv(tmp / "dumbbell" / "ns3" / "tables" / "runs.csv")
    return tmp


def test_relabelled_copies_one_queue_under_each_papers_name() -> None:
    df = pd.DataFrame({"queue": ["CoDel", "PIE", "CoDel"], "x": [1, 2, 3]})
    out = queues.relabelled(df, "CoDel", ["DropTail", "RED"])
    assert list(out["queue"]) == ["DropTail", "DropTail", "RED", "RED"]
    assert list(out["x"]) == [1, 3, 1, 3]
    with pytest.raises(ValueError, match="no rows of queue FQ-CoDel"):
        queues.relabelled(df, "FQ-CoDel", ["DropTail"])


def test_the_section_exists_where_a_simulator_runs_queues_beyond_the_grid() -> None:
    assert plan.queue_backend(_cfg(), "dumbbell") == "ns3"
    only_papers = _cfg(simulator_queues={"dumbbell": {"ns3": ["DropTail", "RED"]}})
    assert plan.queue_backend(only_papers, "dumbbell") == ""
    assert plan.queue_backend(_cfg(), "hstcp") == ""  # hstcp runs on ns-2 alone here
    text = queues.not_run(["dumbbell", "hstcp", "ramya", "vegas"], ["ns3"])
    assert text.startswith("ramya and vegas have no ns3 scenario")


def test_claims_on_another_queue_are_the_papers_own_code_on_its_rows(tmp_path: Path) -> None:
    """Every ns-3 queue carries the paper's DropTail cells (RED: its RED cells), so each claim's
    verdict on it is the verdict the paper's own table gets; 10 seeds: judged."""
    cfg = _cfg(simulator_queues={"dumbbell": {"ns3": JUDGED}})
    table = queues.judge(cfg, "dumbbell", "ns3", _results(tmp_path, cfg, 10))
    paper = pd.read_csv(tmp_path / "dumbbell" / "tables" / "claims.csv")
    assert list(table.columns) == list(queues.COLUMNS)
    assert set(table["simulator"]) == {"ns2", "ns3"}
    assert list(dict.fromkeys(table[table["simulator"] == "ns3"]["queue"])) == JUDGED
    for queue in ("CoDel", "FQ-CoDel"):
        mine = table[(table["queue"] == queue) & (table["scope"] == "DropTail")]
        expect = paper[paper["scope"] == "DropTail"].set_index("claim")["paper_table_verdict"]
        got = mine.set_index("claim")["verdict"]
        assert got.to_dict() == expect.to_dict(), queue
    # RED's rows on ns-3 are paper 001's cells: paper 001's claims get their own table's verdicts
    red = table[(table["simulator"] == "ns3") & (table["queue"] == "RED")]
    red = red[red["scope"] == "RED"].set_index("claim")["measured"]
    expect = paper[paper["scope"] == "RED"].set_index("claim")["paper_table_verdict"]
    assert red.to_dict() == expect.to_dict()
    assert (table["seeds"] == 10).all() and not table["verdict"].str.startswith("not").any()
    conclusion = table[table["conclusion"]]
    assert set(conclusion["claim"]) == {"small_buffers_better"}


def test_too_few_seeds_are_measured_not_judged(tmp_path: Path) -> None:
    cfg = _cfg(simulator_queues={"dumbbell": {"ns3": JUDGED}})
    table = queues.judge(cfg, "dumbbell", "ns3", _results(tmp_path, cfg, 3))
    ns3 = table[table["simulator"] == "ns3"]
    assert (ns3["verdict"] == "not judged: n < 5 seeds").all()
    assert set(ns3["measured"]) <= {"holds", "partly", "fails", "untestable"}
    assert (table[table["simulator"] == "ns2"]["verdict"] != "not judged: n < 5 seeds").all()
    text = queues.sentence(table, "DropTail", ["DropTail", "RED"])
    assert "Not judged: not judged: n < 5 seeds" not in text
    assert "Not judged: n < 5 seeds" in text


def _verdicts(**measured: str) -> pd.DataFrame:
    rows = [
        {
            "paper": "P",
            "scope": "DropTail",
            "claim": "c",
            "conclusion": True,
            "simulator": "ns2" if q == "ns2" else "ns3",
            "queue": "DropTail" if q in ("ns2", "DropTail") else q,
            "seeds": 10,
            "verdict": v,
            "measured": v,
            "agree": {"holds": 4, "partly": 3, "fails": 1, "untestable": 0}[v],
            "comparisons": 0 if v == "untestable" else 4,
            "evidence": "e",
            "statement": "Small is better.",
        }
        for q, v in measured.items()
    ]
    return pd.DataFrame(rows)


def test_the_sentence_says_where_the_conclusion_still_holds() -> None:
    table = _verdicts(ns2="holds", DropTail="partly", CoDel="holds", PIE="fails", FQ="holds")
    text = queues.sentence(table, "DropTail", ["DropTail", "RED"])
    assert text == (
        "P: “Small is better.” holds under CoDel and FQ; does not hold under PIE "
        "(CoDel 4 of 4 comparisons, PIE 1 of 4 comparisons, FQ 4 of 4 comparisons). On the "
        "paper's own queue (DropTail) it holds on ns2 and holds only in part on ns3."
    )
    short = table.assign(verdict="not judged: n < 5 seeds")
    assert queues.sentence(short, "DropTail", ["DropTail"]).endswith(
        "Not judged: n < 5 seeds; these verdicts are what the runs measured, not a judgement."
    )


def test_the_claims_table_has_the_papers_queue_then_each_other_queue() -> None:
    table = _verdicts(ns2="holds", DropTail="partly", CoDel="fails")
    table.loc[2, "verdict"] = "not judged: n < 5 seeds"
    shown = queues.pivot(table, "ns2")
    assert shown["columns"] == ["ns2, the paper's own queue", "ns3 DropTail", "ns3 CoDel"]
    (row,) = shown["rows"]
    assert [c["text"] for c in row["cells"]] == [
        "holds, 4 of 4",
        "partly, 3 of 4",
        "fails, 1 of 4 (not judged: n < 5 seeds)",
    ]
    assert [c["cls"] for c in row["cells"]] == ["holds", "partly", "fails"]


def test_hstcp_delay_is_littles_law_and_the_figure_has_a_panel_per_setting(
    tiny_cfg: dict[str, Any],
) -> None:
    block = tiny_cfg["hstcp"]  # s1 at 10 Mb/s, 1000 B packets: 1250 packets/s at full rate
    rows = [
        {"scenario": "s1", "queue": q, "buffer_frac": f, "metric": m, "mean": v, "n": 2}
        for q, f, util, qlen in (("CoDel", 0.1, 0.5, 10.0), ("CoDel", 1.0, 1.0, 10.0))
        for m, v in (("link_utilisation", util), ("queue_avg_pkts", qlen))
    ]
    cells = hstcp_queues.cells(block, pd.DataFrame(rows))
    assert list(cells["delay"]) == pytest.approx([16.0, 8.0])  # 10 / 625 s, 10 / 1250 s
    assert list(cells["throughput"]) == [0.5, 1.0]
    assert set(cells["panel"]) == {"scenario s1, bottleneck 10 Mb/s"}
    fig = queues_figure(cells)
    assert isinstance(fig, Figure) and len([a for a in fig.axes if a.get_visible()]) == 1


def queues_figure(cells: pd.DataFrame) -> Figure:
    from bufrepro.kit.tradeoff import delay_vs_throughput

    return delay_vs_throughput(cells, hstcp_queues.words()["axes"])


def test_the_aqms_operating_point_is_each_rates_packet_time_beside_the_targets() -> None:
    block = {"grid": {"bottleneck_mbps": [0.05, 0.1, 0.5]}, "tcp": {"mss_bytes": 1460}}
    made = queues.operating_point(block)
    assert [r.split(" (")[0] for r in made["rows"]] == [
        "0.05 Mb/s: one 1500 B packet takes 240 ms to send",
        "0.1 Mb/s: one 1500 B packet takes 120 ms to send",
        "0.5 Mb/s: one 1500 B packet takes 24 ms to send",
    ]
    assert "24x CoDel's 5 ms target, 8x PIE's 15 ms reference" in made["rows"][1]
    # the "-scaled" queues' delays there (docs/today-queues.md's table)
    scaled = [r.split("scaled: ")[1] for r in made["rows"]]
    assert scaled == [
        f"CoDel's and FQ-CoDel's target {t} ms, interval {i} ms, PIE's reference {t} ms)"
        for t, i in ((360, 720), (180, 360), (36, 131))
    ]
    assert "RFC 8290" in made["advice"]
    assert "16.5 to 0.6 kb/s" in made["ecn"]  # docs/today-queues.md's measured table
    scenarios = {"scenarios": {"s1": {"bottleneck_mbps": 50}}, "packet_bytes": 1000}
    assert queues.link_rates({**scenarios, "grid": {"scenario": ["s1"]}}) == [50.0]


def test_the_figures_points_carry_goodput_and_intervals() -> None:
    rows = []
    for metric, mean in (
        ("tcp_throughput_kbps", 80.0),
        ("tcp_goodput_kbps", 60.0),
        ("tcp_delay_ms_mean", 300.0),
    ):
        cell = {"queue": "CoDel", "plr": 0.01, "bottleneck_mbps": 0.1, "buffer": 5}
        rows.append(
            {**cell, "metric": metric, "n": 3, "mean": mean, "sd": 1.0}
            | {"ci_low": mean - 2, "ci_high": mean + 2}
        )
    made = STUDY.queue_cells({}, pd.DataFrame(rows))
    r = made.iloc[0]
    assert (r["throughput"], r["goodput"], r["delay"]) == (80.0, 60.0, 300.0)
    assert (r["goodput_low"], r["goodput_high"], r["delay_low"]) == (58.0, 62.0, 298.0)


def test_every_judged_outcome_reads_as_a_verb_and_a_group() -> None:
    """The sentence's words cover every outcome a claim can end in on one queue (a missing one
    would print the bare outcome: 'it not supported on ns2')."""
    from bufrepro.kit import verdicts
    from bufrepro.pipeline import queues

    w = queues.words()
    for outcome in verdicts.outcomes():
        assert outcome in w["group"], outcome
        assert outcome in w["verb"], outcome
