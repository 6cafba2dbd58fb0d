"""A reproduction's verdicts, counts and answers as one JSON file the docs quote (docs/data/)."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro import registry
from bufrepro.kit import prose
from bufrepro.pipeline import report_text, summary

WORDS = Path(__file__).with_name("docs_summary.yaml")
# The report's provenance list (report/report.html.j2: <dt>label</dt><dd>text</dd>).
REPORT = Path("report") / "index.html"
REPORT_COMMIT = re.compile(r"<dt>git commit</dt><dd>([0-9a-f]{7,40})\s*\(?([^<)]*)\)?</dd>")
REPORT_BUILT = re.compile(r"<dt>report built</dt><dd>(\d{4}-\d{2}-\d{2})")
# A claim's outcomes that speak against it; the ones counted under a head of their own.
AGAINST = ("fails", "not supported")
HEADS = ("untestable", "no meaningful difference", "not judged")


def words() -> Mapping[str, Any]:
    """The answers' words (docs_summary.yaml)."""
    return prose.load(WORDS)


def _counts(frame: pd.DataFrame, column: str) -> dict[str, int]:
    """How many rows carry each verdict of the vocabulary (summary's counts)."""
    return summary.counts(frame[column]) if column in frame else {}


def cross_sim(tables: Path) -> dict[str, dict[str, int]]:
    """Per further simulator: cell-metrics both ran, and how many agree, differ, are undecided."""
    path = tables / "cross_sim_counts.csv"
    if not path.is_file():
        return {}
    frame = pd.read_csv(path)
    cols = ["cells", "agree", "differ", "undecided", "not_judged"]
    return {
        str(sim): {c: int(rows[c].sum()) for c in cols}
        for sim, rows in frame.groupby("simulator", sort=True)
    }


def cross_sim_metrics(tables: Path) -> dict[str, dict[str, dict[str, int]]]:
    """cross_sim's counts per further simulator and metric ({sim: {metric: counts}})."""
    path = tables / "cross_sim_counts.csv"
    if not path.is_file():
        return {}
    frame = pd.read_csv(path)
    cols = ["cells", "agree", "differ", "undecided", "not_judged"]
    out: dict[str, dict[str, dict[str, int]]] = {}
    for r in frame.to_dict("records"):
        out.setdefault(str(r["simulator"]), {})[str(r["metric"])] = {c: int(r[c]) for c in cols}
    return out


def published_gap(tables: Path) -> dict[str, dict[str, Any]]:
    """Per simulator, the diff against the published tables (cross_sim_published.csv): rows
    with a value of ours, their median |relative difference| and share within 25 % (in %)."""
    path = tables / "cross_sim_published.csv"
    if not path.is_file():
        return {}
    return {
        str(r["simulator"]): {
            "rows": int(r["rows"]),
            "median_abs_rel_diff": summary.pct(float(r["median_abs_rel_diff"])),
            "within_25pct": summary.pct(float(r["within_25pct"])),
        }
        for r in pd.read_csv(path).to_dict("records")
    }


def queues(tables: Path) -> dict[str, dict[str, str]]:
    """Today's queues: per paper and claim, each queue's verdict ('sim/queue' -> verdict)."""
    path = tables / "queues_claims.csv"
    if not path.is_file():
        return {}
    frame = pd.read_csv(path, keep_default_na=False)
    out: dict[str, dict[str, str]] = {}
    for _, r in frame.iterrows():
        out.setdefault(f"{r['scope']}.{r['claim']}", {})[f"{r['simulator']}/{r['queue']}"] = str(
            r["verdict"]
        )
    return out


def head(verdict: str) -> str:
    """A claim's outcome as the counts name it ('untestable: no run at x' -> 'untestable')."""
    return next((h for h in HEADS if verdict.startswith(h)), verdict)


def paper_of(seed_file: str) -> str:
    """A paper's id from its seed file ('000_2aa0e755a3c7bea1.txt' -> '000')."""
    return str(seed_file).split("_", 1)[0]


def labels(rows: pd.DataFrame, several: bool) -> list[str]:
    """The claims of `rows` by id in their order, with their scopes when a paper has several."""
    out = []
    for claim, g in rows.groupby("claim", sort=False):
        scopes = ", ".join(str(s) for s in g["scope"])
        text = prose.fill(words()["claim_scopes"], claim=claim, scopes=scopes)
        out.append(text if several else str(claim))
    return out


def verb(outcome: str, measured: str = "") -> str:
    """An outcome as a verb ("holds", "is undecided"); a verdict not judged: what was measured
    and why not ("holds as measured (not judged: n < 5 seeds)")."""
    w = words()
    if outcome.startswith("not judged") and measured and not measured.startswith("not judged"):
        return prose.fill(w["queues"]["not_judged"], verb=verb(measured), verdict=outcome)
    return str(w["verb"].get(outcome, outcome))


def simulator(name: str) -> str:
    """A simulator in words ("ns2" -> "ns-2")."""
    return str(words()["simulators"].get(name, name))


def outcomes(rows: pd.DataFrame) -> dict[str, str]:
    """Verdicts by 'simulator/queue'."""
    return {f"{r['simulator']}/{r['queue']}": str(r["verdict"]) for r in rows.to_dict("records")}


def conclusion_rows(
    qtable: pd.DataFrame, claims: pd.DataFrame, scope: str, claim: str, own: str
) -> pd.DataFrame:
    """The conclusion's verdicts on one scope (simulator, queue, verdict, measured): the today's
    queues table's rows, or without one (no queue of another simulator ran) its claims.csv row
    on the study's own simulator."""
    if len(qtable):
        part = qtable[(qtable["scope"] == scope) & (qtable["claim"] == claim)]
        if len(part):  # a table from before `measured`: the verdict is what was measured
            return part.assign(measured=part.get("measured", part["verdict"]))[
                ["simulator", "queue", "verdict", "measured"]
            ]
    row = claims[(claims["scope"] == scope) & (claims["claim"] == claim)]
    verdicts = [str(v) for v in row["verdict"]]
    return pd.DataFrame(
        {"simulator": own, "queue": scope, "verdict": verdicts, "measured": verdicts}
    )


def scope_clause(rows: pd.DataFrame, scope: str, own: str, several: bool) -> str:
    """The conclusion on one scope: its verdict on the own simulator's queue, then the other
    simulators' queues grouped by verdict ("holds under CoDel and PIE; fails under RED")."""
    w = words()["queues"]
    mine = rows[(rows["simulator"] == own) & (rows["queue"] == scope)]
    own_text = "; ".join(
        prose.fill(
            w["own"], verb=verb(str(r["verdict"]), str(r["measured"])), simulator=simulator(own)
        )
        for r in mine.to_dict("records")
    ) or prose.fill(w["own_absent"], simulator=simulator(own))
    parts = []
    for sim, g in rows[rows["simulator"] != own].groupby("simulator", sort=True):
        grouped: dict[str, list[str]] = {}
        for r in g.to_dict("records"):
            grouped.setdefault(verb(str(r["verdict"]), str(r["measured"])), []).append(
                str(r["queue"])
            )
        groups = w["group_joint"].join(
            prose.fill(w["group"], verb=v, queues=joined(sorted(qs))) for v, qs in grouped.items()
        )
        parts.append(prose.fill(w["others"], simulator=simulator(str(sim)), groups=groups))
    others = "".join(parts) or w["not_run"]
    key = "scope_many" if several else "scope_one"
    return prose.fill(w[key], scope=scope, own=own_text, others=others)


def joined(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def conclusion(name: str, rows: pd.DataFrame, qtable: pd.DataFrame) -> tuple[dict[str, Any], str]:
    """A paper's declared conclusion claim (studies/<S>/queues.yaml): its id, words and
    verdicts per scope and 'simulator/queue', and the answer's words on it; ({}, the words for
    none) when the study declares none."""
    study = registry.get(name)
    declared = study.queue_words().get("papers", {})
    scopes = [str(s) for s in dict.fromkeys(rows["scope"]) if str(s) in declared]
    w = words()["queues"]
    if not scopes:
        return {}, str(w["none"])
    own = study.own_simulator()
    claim = str(declared[scopes[0]]["conclusion"])
    said = rows[(rows["claim"] == claim) & rows["scope"].isin(scopes)]
    verdicts, clauses = {}, []
    for scope in scopes:
        found = conclusion_rows(qtable, rows, scope, str(declared[scope]["conclusion"]), own)
        verdicts[scope] = outcomes(found)
        clauses.append(scope_clause(found, scope, own, len(scopes) > 1))
    part = {
        "claim": claim,
        "statement": str(said["statement"].iloc[0]) if len(said) else "",
        "outcomes": verdicts,
    }
    return part, prose.fill(w["conclusion"], claim=claim, cells=w["scope_joint"].join(clauses))


def listed(key: str, items: Sequence[str], n: int, total: int) -> str:
    """The holds or against clause: none, one or some of the paper's `total` claim rows (a claim
    per scope), `n` of them, named by id with their scopes."""
    w = words()[key]
    form = "none" if not n else "one" if n == 1 else "some"
    return prose.fill(w[form], n=n, total=total, claims=", ".join(items))


def paper(name: str, pid: str, rows: pd.DataFrame, qtable: pd.DataFrame) -> dict[str, Any]:
    """One paper's part: its claims' counts, the ids that hold and that fail or are not
    supported, its declared conclusion, and its answer in one sentence."""
    w = words()
    heads = rows["verdict"].astype(str).map(head)
    several = rows["scope"].nunique() > 1
    holds = labels(rows[heads == "holds"], several)
    against = labels(rows[heads.isin(AGAINST)], several)
    counted = summary.counts(rows["verdict"])
    rest = [
        prose.fill(w["count"], n=n, outcome=k)
        for k, n in counted.items()
        if n and k != "holds" and k not in AGAINST
    ]
    part, queues_text = conclusion(name, rows, qtable)
    names = w["papers"]["names"]
    answer = prose.fill(
        w["answer"],
        paper=names.get(pid) or prose.fill(w["papers"]["fallback"], paper=pid),
        holds=listed("holds", holds, int((heads == "holds").sum()), len(rows)),
        against=listed("against", against, int(heads.isin(AGAINST).sum()), len(rows)),
        rest=prose.fill(w["rest"], counts=", ".join(rest)) if rest else "",
        queues=queues_text,
    )
    return {
        "claims": counted,
        "holds": holds,
        "against": against,
        "conclusion": part,
        "answer": answer,
    }


def papers(name: str, tables: Path) -> dict[str, dict[str, Any]]:
    """Each paper of the study (its claims' seed files) by id: paper()'s part."""
    claims = pd.read_csv(tables / "claims.csv", keep_default_na=False)
    path = tables / "queues_claims.csv"
    qtable = pd.read_csv(path, keep_default_na=False) if path.is_file() else pd.DataFrame()
    ids = claims["seed_file"].astype(str).map(paper_of)
    return {pid: paper(name, pid, claims[ids == pid], qtable) for pid in sorted(set(ids))}


def study(results: Path, name: str) -> dict[str, Any]:
    """One study's part: the summary row's words, claim counts, readings, cross-sim, queues,
    and each paper's answer."""
    tables = results / name / "tables"
    row = summary.study_summary(name, tables)
    shown = summary.display_rows([row])[0]
    verdict = tables / "verdict.json"
    readings = json.loads(verdict.read_text(encoding="utf-8")) if verdict.is_file() else {}
    claims = pd.read_csv(tables / "claims.csv", keep_default_na=False)
    per_paper = papers(name, tables)
    return {
        "summary": shown,
        "claims": _counts(claims, "verdict"),
        # the paper's side under our rule only (summary.paper_side), its other rows counted
        "claims_paper": row["claims_paper"],
        "claims_paper_apart": row["claims_paper_apart"],
        "readings": {
            "verdict": str(readings.get("verdict", summary.NO_CALIBRATION)),
            "judged": bool(readings.get("judged", False)),
            "confirmed": int(readings.get("confirmed", 0)),
            "seeds": int(readings.get("seeds", 0)),
            "readings": int(readings.get("readings", 0)),
        },
        "cross_sim": cross_sim(tables),
        "cross_sim_metrics": cross_sim_metrics(tables),
        "cross_sim_published": published_gap(tables),
        "queues": queues(tables),
        "papers": per_paper,
        "answer": " ".join(p["answer"] for p in per_paper.values()),
    }


def provenance(results: Path) -> dict[str, str]:
    """The tree's commit, its state and date, and where they come from: the provenance of the
    report built with the tree (report/index.html beside results/: its git commit and build
    date), else the git checkout holding the tree (its HEAD now, the config's date)."""
    w = words()["source"]
    made = (results / "config.validated.yaml").stat().st_mtime
    date = datetime.datetime.fromtimestamp(made, tz=datetime.UTC).strftime("%Y-%m-%d")
    report = results.resolve().parent / REPORT
    text = report.read_text(encoding="utf-8") if report.is_file() else ""
    found = REPORT_COMMIT.search(text)
    if found:
        built = REPORT_BUILT.search(text)
        return {
            "commit": found[1][:7],
            "state": found[2].strip(),
            "date": built[1] if built else date,
            "source": str(w["report"]),
        }
    commit = report_text.git("rev-parse", "--short=7", "HEAD", where=results.resolve())
    return {
        "commit": commit or "unknown",
        "state": "",
        "date": date,
        "source": str(w["checkout" if commit else "unknown"]),
    }


def build(results: Path, cfg: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The whole file: which reproduction (profile; the tree's commit and date, provenance()),
    then per study."""
    return {
        "reproduction": {"profile": str(cfg.get("profile") or "default"), **provenance(results)},
        "studies": {n: study(results, n) for n in names},
    }


def write(results: Path, cfg: Mapping[str, Any], names: Sequence[str], out: Path) -> Path:
    """Write the file (sorted keys, one value a line: a diff reads per verdict)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(build(results, cfg, names), indent=1, sort_keys=True, ensure_ascii=False)
    out.write_text(text + "\n", encoding="utf-8")
    return out
