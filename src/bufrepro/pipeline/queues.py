"""Today's queues on the papers' grids: each paper's claims judged on another simulator's queues."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from bufrepro import registry
from bufrepro.backends.simulators import ns3
from bufrepro.kit import prose, verdicts
from bufrepro.pipeline import compare, evidence, plan

if TYPE_CHECKING:
    from matplotlib.figure import Figure

WORDS = Path(__file__).with_name("queues.yaml")
# The verdicts' vocabulary (kit.verdicts), in the order the section groups the queues.
VERDICTS = verdicts.outcomes()
COLUMNS = (
    "study",
    "paper",
    "scope",
    "claim",
    "conclusion",
    "simulator",
    "queue",
    "seeds",
    "verdict",
    "measured",
    "agree",
    "comparisons",
    "evidence",
    "statement",
)
TABLES = ("queues_claims", "queues_conclusions")
FIGURE = "queues"


def words() -> Mapping[str, Any]:
    """The section's words (queues.yaml)."""
    return prose.load(WORDS)


def relabelled(df: pd.DataFrame, queue: str, scopes: Sequence[str]) -> pd.DataFrame:
    """The rows of one queue, once under each scope's name: a paper's claims, which look at
    the rows of the queue it sized, then look at this queue's; `queue_ran` keeps the queue
    that ran (a claim whose reading depends on the discipline reads it there)."""
    part = df[df["queue"] == queue]
    if part.empty:
        raise ValueError(f"no rows of queue {queue} to judge the claims on")
    return pd.concat([part.assign(queue=s, queue_ran=queue) for s in scopes], ignore_index=True)


def seeds(summary: pd.DataFrame, queue: str) -> int:
    """The fewest seeds behind any of the queue's cell means (0 if it has none)."""
    part = summary[summary["queue"] == queue]
    return int(part["n"].min()) if len(part) else 0


def _rows(
    name: str,
    claims: pd.DataFrame,
    papers: Mapping[str, Mapping[str, str]],
    simulator: str,
    queue: str,
    n: int,
) -> list[dict[str, Any]]:
    """Rows of the queues_claims table from a claims table (kit.claims.evaluate_claims' shape)."""
    short = evidence.shortfalls(n)
    out = []
    for r in claims.to_dict("records"):
        scope = str(r["scope"])
        if scope not in papers:
            continue
        out.append(
            {
                "study": name,
                "paper": papers[scope]["paper"],
                "scope": scope,
                "claim": r["claim"],
                "conclusion": r["claim"] == papers[scope]["conclusion"],
                "simulator": simulator,
                "queue": queue,
                "seeds": n,
                "verdict": evidence.not_judged(short) if short else r["verdict"],
                "measured": r["verdict"],
                "agree": int(r["agree"]),
                "comparisons": int(r["comparisons"]),
                "evidence": r["evidence"],
                "statement": r["statement"],
            }
        )
    return out


def judge(cfg: Mapping[str, Any], name: str, other: str, results: Path) -> pd.DataFrame:
    """Each paper's claims on each queue `other` ran (results/<name>/<other>/tables), beside
    their verdicts on the study's own simulator (its claims.csv): the study's own claims
    (Study.claims, compare()'s), handed one queue's runs at a time under the name of the queue
    each paper sized."""
    study = registry.get(name)
    papers = study.queue_words()["papers"]
    scopes = list(papers)
    own_dir, where = results / name / "tables", results / name / other / "tables"
    own_summary = pd.read_csv(own_dir / "summary.csv")
    own_claims = pd.read_csv(own_dir / "claims.csv")
    rows = []
    for scope in scopes:
        n = seeds(own_summary, scope)
        if n:
            part = own_claims[own_claims["scope"] == scope]
            rows += _rows(name, part, papers, study.own_simulator(), scope, n)
    summary = pd.read_csv(where / "summary.csv")
    runs = pd.read_csv(where / "runs.csv")
    published = compare.published(name)
    for queue in plan.simulator_block(cfg, name, other)["grid"]["queue"]:
        tables = {
            **published,
            "summary": relabelled(summary, queue, scopes),
            "runs": relabelled(runs, queue, scopes),
        }
        made = study.claims(cfg[name], tables)
        rows += _rows(name, made, papers, other, queue, seeds(summary, queue))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def joined(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def sentence(table: pd.DataFrame, scope: str, own_queues: Sequence[str]) -> str:
    """Whether the paper's conclusion (its `conclusion` claim) still holds on each queue beyond
    the papers' own, then on its own queue per simulator, in queues.yaml's words."""
    w = words()
    part = table[(table["scope"] == scope) & table["conclusion"].astype(bool)]
    beyond = part[~part["queue"].isin(own_queues)]
    groups = [
        prose.fill(w["group"][v], queues=joined(list(beyond[beyond["measured"] == v]["queue"])))
        for v in VERDICTS
        if (beyond["measured"] == v).any()
    ]
    counts = ", ".join(
        prose.fill(w["count"], queue=q, agree=a, comparisons=c)
        for q, a, c in zip(beyond["queue"], beyond["agree"], beyond["comparisons"], strict=True)
    )
    mine = part[part["queue"] == scope]
    own = w["own_joint"].join(
        prose.fill(
            w["own"], verb=w["verb"].get(r["measured"], r["measured"]), simulator=r["simulator"]
        )
        for r in mine.to_dict("records")
    )
    prefix = evidence.not_judged([])
    reasons = sorted({str(v)[len(prefix) :] for v in part["verdict"] if str(v).startswith(prefix)})
    first = part.iloc[0]
    return prose.fill(
        w["sentence"],
        paper=first["paper"],
        statement=first["statement"],
        groups=w["group_joint"].join(groups) + (prose.fill(w["counts"], counts=counts)),
        scope=scope,
        own=own,
        judged=prose.fill(w["not_judged"], reasons="; ".join(reasons)) if reasons else "",
    )


def conclusions(table: pd.DataFrame, name: str, own_queues: Sequence[str]) -> pd.DataFrame:
    """study, scope, paper, claim, sentence: one row per paper (queue it sized)."""
    papers = registry.get(name).queue_words()["papers"]
    rows = [
        {
            "study": name,
            "scope": scope,
            "paper": paper["paper"],
            "claim": paper["conclusion"],
            "sentence": sentence(table, scope, own_queues),
        }
        for scope, paper in papers.items()
        if ((table["scope"] == scope) & table["conclusion"].astype(bool)).any()
    ]
    return pd.DataFrame(rows, columns=["study", "scope", "paper", "claim", "sentence"])


def write(cfg: Mapping[str, Any], name: str, other: str, results: Path, out_dir: Path) -> int:
    """out_dir/queues_claims.csv and queues_conclusions.csv; returns the claims' row count."""
    table = judge(cfg, name, other, results)
    own_queues = list(cfg[name]["grid"].get("queue", []))
    out_dir.mkdir(parents=True, exist_ok=True)
    table.to_csv(out_dir / "queues_claims.csv", index=False, lineterminator="\n")
    conclusions(table, name, own_queues).to_csv(
        out_dir / "queues_conclusions.csv", index=False, lineterminator="\n"
    )
    return len(table)


def cell_text(r: Mapping[str, Any]) -> str:
    """A verdict as the claims table shows it: measured, its count, and 'not judged' if so."""
    w = words()
    judged = not str(r["verdict"]).startswith(evidence.not_judged([]))
    return prose.fill(w["cell"] if judged else w["cell_not_judged"], **r)


def pivot(table: pd.DataFrame, own: str) -> dict[str, Any]:
    """The claims table as the report shows it: one row per (paper, claim), one column for the
    paper's own queue on `own` (the study's simulator), then one per queue of the other."""
    w = words()
    others = table[table["simulator"] != own][["simulator", "queue"]].drop_duplicates()
    columns = [prose.fill(w["own_column"], simulator=own)] + [
        prose.fill(w["queue_column"], simulator=s, queue=q)
        for s, q in zip(others["simulator"], others["queue"], strict=True)
    ]
    rows = []
    for (scope, claim), g in table.groupby(["scope", "claim"], sort=False):
        where = [g[(g["simulator"] == own) & (g["queue"] == scope)]] + [
            g[(g["simulator"] == s) & (g["queue"] == q)]
            for s, q in zip(others["simulator"], others["queue"], strict=True)
        ]
        cells = [
            {"cls": "", "text": "", "title": ""}
            if c.empty
            else {
                "cls": str(c.iloc[0]["measured"]),
                "text": cell_text(c.iloc[0].to_dict()),
                "title": str(c.iloc[0]["evidence"]),
            }
            for c in where
        ]
        first = g.iloc[0]
        rows.append(
            {
                "paper": first["paper"],
                "claim": claim,
                "conclusion": bool(first["conclusion"]),
                "statement": first["statement"],
                "cells": cells,
            }
        )
    return {"columns": columns, "rows": rows}


def not_run(studies: Sequence[str], backends: Sequence[str]) -> str:
    """The sentence naming the studies none of `backends` runs ("" when there are none)."""
    left = [n for n in studies if not set(backends) & set(registry.get(n).simulators())]
    if not left:
        return ""
    return prose.fill(words()["not_run"], studies=joined(left), backend=joined(list(backends)))


def figure(cfg: Mapping[str, Any], name: str, other: str, results: Path) -> Figure:
    """Delay against throughput per queue that `other` ran (the study's queue_cells)."""
    from bufrepro.kit import tradeoff

    study = registry.get(name)
    summary = pd.read_csv(results / name / other / "tables" / "summary.csv")
    cells = study.queue_cells(plan.simulator_block(cfg, name, other), summary)
    return tradeoff.delay_vs_throughput(cells, study.queue_words()["axes"])


def link_rates(block: Mapping[str, Any]) -> list[float]:
    """The grid's bottleneck rates (Mb/s): grid.bottleneck_mbps, or its scenarios' rates."""
    grid = block.get("grid", {})
    if "bottleneck_mbps" in grid:
        return sorted({float(r) for r in grid["bottleneck_mbps"]})
    scenarios = block.get("scenarios", {})
    names = grid.get("scenario", list(scenarios))
    return sorted({float(scenarios[str(n)]["bottleneck_mbps"]) for n in names})


def packet_bytes(block: Mapping[str, Any]) -> float:
    """One data packet on the wire: packet_bytes, or the TCP MSS plus 40 B of headers."""
    if "packet_bytes" in block:
        return float(block["packet_bytes"])
    return float(block.get("tcp", {}).get("mss_bytes", 1460)) + 40


def operating_point(block: Mapping[str, Any]) -> dict[str, Any]:
    """Each rate of the grid: its one-packet transmission time beside CoDel's target and PIE's
    reference and the scaled queues' (rows, queues.yaml's words), RFC 8290's advice (advice)
    and why ECN stays off (ecn)."""
    w = words()["aqm"]
    codel, interval, pie = (
        delay_ms(q, a) for q, a in (("CoDel", "Target"), ("CoDel", "Interval"), ("PIE", PIE_REF))
    )
    size = packet_bytes(block)
    rows = []
    for mbps in link_rates(block):
        ms = size * 8 / (mbps * 1e3)
        rows.append(
            prose.fill(
                w["row"],
                mbps=mbps,
                packet=size,
                ms=ms,
                codel=ms / codel,
                codel_target=codel,
                pie=ms / pie,
                pie_target=pie,
                scaled_codel=ns3.scaled_target_ms(codel, ms),
                scaled_interval=ns3.scaled_interval_ms(interval, codel, ms),
                scaled_pie=ns3.scaled_target_ms(pie, ms),
            )
        )
    return {"rows": rows, "advice": str(w["advice"]).strip(), "ecn": str(w["ecn"]).strip()}


PIE_REF = "QueueDelayReference"


def delay_ms(queue: str, attribute: str) -> float:
    """A delay attribute of the ns3 backend's queue table, in ms (CoDel's Target: 5)."""
    return float(ns3.QUEUES[queue].attrs[attribute].removesuffix("ms"))
