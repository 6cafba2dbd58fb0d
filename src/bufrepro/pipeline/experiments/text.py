"""The answer as a typed object, told as text by its template (answer.txt.j2) or as JSON."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit.templates import text_environment
from bufrepro.pipeline.experiments.notes import notes as guard_notes

# A recommended buffer whose queue drops more than this share of packets gets a note.
LOSS_NOTE = 0.01
TEMPLATES = Path(__file__).parent


@dataclass(frozen=True)
class Described:
    """The link as the answer's text describes it: rate, hops, loss, flows, BDP and window."""

    rate_mbps: float
    rtt_ms: float
    hops: str
    loss: float
    simulator: str
    flows: int
    cc: str
    cbr_mbps: float
    web_rate: float
    bdp_pkts: float
    packet_bytes: int
    window_pkts: int
    window_auto: bool


@dataclass(frozen=True)
class Runs:
    """The runs the answer rests on."""

    count: int
    coarse: int
    refine: int
    seeds: list[int]
    measured_s: float
    warmup_s: float
    buffers: int
    buffer_min_pkts: int
    buffer_max_pkts: int


@dataclass(frozen=True)
class Rule:
    """A rule of thumb, in packets."""

    rule: str
    pkts: float
    source: str


@dataclass(frozen=True)
class QueueAnswer:
    """One queue's recommended buffer (None when no buffer tested meets the targets), its delay
    cost, its spread over the two seed sets, and its notes. A number not measured is None."""

    queue: str
    buffer_pkts: int | None
    reason: str
    best_utilisation: float
    best_buffer_pkts: int
    buffer_ms: float | None
    buffer_bdp: float | None
    utilisation: float | None
    utilisation_ci: float | None
    qdelay_ms_mean: float | None
    qdelay_ms_p95: float | None
    qdelay_ms_p99: float | None
    queue_loss_rate: float | None
    link_loss_rate: float | None
    goodput_mbps: float | None
    jain_index: float | None
    seed_sets: list[list[int]]
    seed_set_picks_pkts: list[int | None]
    seed_sets_steps_apart: int | None
    step_below_pkts: int | None
    step_above_pkts: int | None
    smallest_tested: bool
    heavy_loss: bool
    notes: list[str]
    meaning: str


@dataclass(frozen=True)
class Answer:
    """The whole answer: the link, the runs, the rules of thumb, the goal (utilisation within
    `within` of the best; p95 queueing delay and queue drops at most these, None - no target)
    and one block per queue."""

    link: Described
    runs: Runs
    rules: list[Rule]
    rules_note: str
    # Which simulator ran the congestion control, and its rule of thumb (words.yaml cc_notes).
    cc_note: str
    within: float
    max_delay_ms: float | None
    max_loss: float | None
    queues: list[QueueAnswer]


def _num(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _whole(x: Any) -> int | None:
    value = _num(x)
    return None if value is None else int(value)


def link_of(d: Mapping[str, Any]) -> Described:
    """The link as the kind describes it."""
    return Described(
        float(d["rate_mbps"]),
        float(d["rtt_ms"]),
        str(d["hops"]),
        float(d["loss"]),
        str(d.get("simulator", "ns2")),
        int(d["flows"]),
        str(d["cc"]),
        float(d["cbr_mbps"]),
        float(d["web_rate"]),
        float(d["bdp_pkts"]),
        int(d["packet_bytes"]),
        int(d["window_pkts"]),
        bool(d["window_auto"]),
    )


def queue_answer(
    rec: Mapping[str, Any], d: Mapping[str, Any], sets: Sequence[Sequence[int]]
) -> QueueAnswer:
    """One queue's block from its recommendation row."""
    b = _whole(rec["buffer_pkts"])
    m = {k: _num(rec.get(k)) for k in ("link_utilisation", "link_utilisation_ci")}
    picked = b is not None
    below, above = _whole(rec.get("step_below_pkts")), _whole(rec.get("step_above_pkts"))
    loss = _num(rec.get("queue_loss_rate")) if picked else None
    return QueueAnswer(
        queue=str(rec["queue"]),
        buffer_pkts=b,
        reason=str(rec["reason"]),
        best_utilisation=float(rec["best_utilisation"]),
        best_buffer_pkts=int(rec["best_buffer_pkts"]),
        buffer_ms=None if b is None else b * float(d["ms_per_pkt"]),
        buffer_bdp=None if b is None else b / float(d["bdp_pkts"]),
        utilisation=m["link_utilisation"] if picked else None,
        utilisation_ci=m["link_utilisation_ci"] if picked else None,
        **{
            k: _num(rec.get(k)) if picked else None
            for k in ("qdelay_ms_mean", "qdelay_ms_p95", "qdelay_ms_p99", "link_loss_rate")
        },
        queue_loss_rate=loss,
        goodput_mbps=_num(rec.get("goodput_mbps")) if picked else None,
        jain_index=_num(rec.get("jain_index")) if picked else None,
        seed_sets=[list(s) for s in sets],
        seed_set_picks_pkts=[_whole(rec.get("set_a_pkts")), _whole(rec.get("set_b_pkts"))],
        seed_sets_steps_apart=_whole(rec.get("seed_sets_steps_apart")) if picked else None,
        step_below_pkts=below,
        step_above_pkts=above,
        smallest_tested=picked and b == below and b != above,
        heavy_loss=loss is not None and loss > LOSS_NOTE,
        notes=guard_notes(rec, d) if picked and "note_words" in d else [],
        meaning=str(d.get("queue_notes", {}).get(str(rec["queue"]), "")) if picked else "",
    )


def build(
    d: Mapping[str, Any],
    rules: pd.DataFrame,
    recs: pd.DataFrame,
    runs: pd.DataFrame,
    targets: tuple[float, float | None, float | None],
    sets: Sequence[Sequence[int]],
) -> Answer:
    """The answer from the kind's description, the rules, the recommendations, the runs and the
    targets (within, max p95 delay in ms, max queue drops: answer.targets)."""
    stages = runs["stage"].value_counts()
    return Answer(
        link=link_of(d),
        runs=Runs(
            count=len(runs),
            coarse=int(stages.get("coarse", 0)),
            refine=int(stages.get("refine", 0)),
            seeds=sorted(int(s) for s in runs["seed"].unique()),
            measured_s=float(d["duration_s"] - d["warmup_s"]),
            warmup_s=float(d["warmup_s"]),
            buffers=int(runs["buffer"].nunique()),
            buffer_min_pkts=int(runs["buffer"].min()),
            buffer_max_pkts=int(runs["buffer"].max()),
        ),
        rules=[
            Rule(str(r["rule"]), float(r["pkts"]), str(r["source"]))
            for r in rules.to_dict("records")
        ],
        rules_note=str(d.get("rules_note") or ""),
        cc_note=str(d.get("cc_note") or ""),
        within=targets[0],
        max_delay_ms=targets[1],
        max_loss=targets[2],
        queues=[
            queue_answer({str(k): v for k, v in rec.items()}, d, sets)
            for rec in recs.to_dict("records")
        ],
    )


def as_data(answer: Answer) -> dict[str, Any]:
    """The answer as JSON-ready data (the same fields, nested)."""
    return dataclasses.asdict(answer)


def render(answer: Answer) -> str:
    """The answer as the terminal prints it (at most ~25 lines for two queues)."""
    template = text_environment(TEMPLATES).get_template("answer.txt.j2")
    return template.render(answer=answer)
