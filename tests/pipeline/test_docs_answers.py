"""The docs' answers: one sentence per paper from a tree's claims and today's-queues tables, and
the tree's own provenance (the report built with it), not the checkout's."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bufrepro.pipeline import docs_summary

SEED = {"DropTail": "000_x.txt", "RED": "001_y.txt"}


def claims_table(path: Path) -> None:
    rows = [
        ("small_buffers_better", "DropTail", "Small buffers are better.", "holds"),
        ("flat_from_15", "DropTail", "Flat from 15.", "partly"),
        ("loss_raises_delay", "DropTail", "Loss raises delay.", "not supported"),
        ("small_buffers_better", "RED", "Small buffers are better.", "fails"),
        ("flat_from_15", "RED", "Flat from 15.", "untestable: no run at 15"),
    ]
    pd.DataFrame(
        [
            {"claim": c, "scope": s, "seed_file": SEED[s], "statement": t, "verdict": v}
            for c, s, t, v in rows
        ]
    ).to_csv(path / "claims.csv", index=False)


def queues_table(path: Path) -> None:
    rows = [
        ("DropTail", "ns2", "DropTail", "holds", "holds"),
        ("DropTail", "ns3", "CoDel", "no meaningful difference", "no meaningful difference"),
        ("DropTail", "ns3", "PIE", "no meaningful difference", "no meaningful difference"),
        ("DropTail", "ns3", "DropTail", "not judged: n < 5 seeds", "holds"),
        ("RED", "ns2", "RED", "fails", "fails"),
        ("RED", "ns3", "CoDel", "holds", "holds"),
    ]
    pd.DataFrame(
        [
            {
                "scope": s,
                "claim": "small_buffers_better",
                "simulator": sim,
                "queue": q,
                "verdict": v,
                "measured": m,
            }
            for s, sim, q, v, m in rows
        ]
    ).to_csv(path / "queues_claims.csv", index=False)


def test_each_paper_answers_what_holds_fails_and_what_todays_queues_change(
    tmp_path: Path,
) -> None:
    claims_table(tmp_path)
    queues_table(tmp_path)
    papers = docs_summary.papers("dumbbell", tmp_path)
    assert list(papers) == ["000", "001"]
    ahmad = papers["000"]
    assert ahmad["holds"] == ["small_buffers_better"]
    assert ahmad["against"] == ["loss_raises_delay"]
    assert ahmad["conclusion"] == {
        "claim": "small_buffers_better",
        "statement": "Small buffers are better.",
        "outcomes": {
            "DropTail": {
                "ns2/DropTail": "holds",
                "ns3/CoDel": "no meaningful difference",
                "ns3/PIE": "no meaningful difference",
                "ns3/DropTail": "not judged: n < 5 seeds",
            }
        },
    }
    assert ahmad["answer"] == (
        "Ahmad et al. with DropTail (paper 000): 1 of its 3 claims holds on our runs"
        " (small_buffers_better); 1 fails or is not supported (loss_raises_delay); the rest:"
        " 1 partly; its conclusion, small_buffers_better, holds on ns-2 and, on ns-3, makes no"
        " meaningful difference under CoDel and PIE, holds as measured (not judged: n < 5"
        " seeds) under DropTail."
    )
    assert papers["001"]["answer"].startswith(
        "Ahmad et al. with RED (paper 001): none of its 2 claims holds on our runs; 1 fails or"
        " is not supported (small_buffers_better); the rest: 1 untestable;"
    )


def test_a_study_without_today_queues_says_so(tmp_path: Path) -> None:
    claims_table(tmp_path)
    ramya = docs_summary.papers("ramya", tmp_path)["000"]
    assert ramya["conclusion"] == {}
    assert ramya["answer"].endswith("has no ns-3 scenario, so today's queues do not judge it.")


def test_a_conclusion_the_tree_has_no_verdict_of_says_so(tmp_path: Path) -> None:
    claims_table(tmp_path)
    answer = docs_summary.papers("hstcp", tmp_path)["000"]["answer"]
    assert answer.endswith(
        "its conclusion, util_90_at_10_flows_bdp, has no verdict on ns-2 and no queue of another"
        " simulator ran it."
    )


def test_without_queues_table_the_conclusion_is_its_own_simulators(tmp_path: Path) -> None:
    claims_table(tmp_path)
    part = docs_summary.papers("dumbbell", tmp_path)["001"]["conclusion"]
    assert part["outcomes"] == {"RED": {"ns2/RED": "fails"}}
    assert (
        "fails on ns-2 and no queue of another simulator ran it."
        in (docs_summary.papers("dumbbell", tmp_path)["001"]["answer"])
    )


@pytest.mark.parametrize("built", [True, False])
def test_the_tree_names_its_own_commit(tmp_path: Path, built: bool) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "config.validated.yaml").write_text("profile: quick\n", encoding="utf-8")
    if built:
        (tmp_path / "report").mkdir()
        (tmp_path / "report" / "index.html").write_text(
            '<dl class="prov">\n<dt>git commit</dt><dd>0123456789abcdef0123456789abcdef01234567'
            " (clean)</dd>\n<dt>report built</dt><dd>2026-12-07 13:04:55 UTC</dd>\n</dl>\n",
            encoding="utf-8",
        )
    made = docs_summary.provenance(results)
    if built:
        assert made == {
            "commit": "0123456",
            "state": "clean",
            "date": "2026-12-07",
            "source": docs_summary.words()["source"]["report"],
        }
    else:  # tmp_path is no git checkout: nothing recorded, and it says so
        assert made["commit"] == "unknown"
        assert made["source"] == docs_summary.words()["source"]["unknown"]


def test_the_whole_file_from_a_tree(tmp_path: Path) -> None:
    results = tmp_path / "results"
    tables = results / "dumbbell" / "tables"
    tables.mkdir(parents=True)
    (results / "config.validated.yaml").write_text("profile: quick\n", encoding="utf-8")
    claims_table(tables)
    queues_table(tables)
    frame = pd.read_csv(tables / "claims.csv")
    frame.assign(paper_table_verdict="holds").to_csv(tables / "claims.csv", index=False)
    pd.DataFrame(
        {
            "metric": ["tcp_delay_ms_mean"],
            "published": [100.0],
            "ours_mean": [120.0],
            "ci_low": [110.0],
            "ci_high": [130.0],
            "ours_n": [5],
            "rel_diff": [0.2],
            "in_ci": [False],
            "has_counterpart": [True],
        }
    ).to_csv(tables / "diff.csv", index=False)
    (tables / "coverage.json").write_text(
        '{"published_rows": 1, "rows_with_counterpart": 1}', encoding="utf-8"
    )
    pd.DataFrame(
        {
            "simulator": ["ns2", "ns3"],
            "rows": [119, 119],
            "median_abs_rel_diff": [2.16, 2.18],
            "within_25pct": [0.16, 0.18],
        }
    ).to_csv(tables / "cross_sim_published.csv", index=False)
    data = docs_summary.build(results, {"profile": "quick"}, ["dumbbell"])
    assert data["reproduction"]["profile"] == "quick"
    part = data["studies"]["dumbbell"]
    assert set(part["papers"]) == {"000", "001"}
    assert part["answer"] == f"{part['papers']['000']['answer']} {part['papers']['001']['answer']}"
    assert part["cross_sim_published"]["ns3"] == {
        "rows": 119,
        "median_abs_rel_diff": "218%",
        "within_25pct": "18%",
    }
