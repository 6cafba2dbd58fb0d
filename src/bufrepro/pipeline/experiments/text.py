"""The answer as the terminal prints it: the link, the rules of thumb, one block per queue."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.pipeline.experiments.notes import notes as guard_notes

# A recommended buffer whose queue drops more than this share of packets gets a note.
LOSS_NOTE = 0.01


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%" if x < 0.1 else f"{100 * x:.1f}%"


def _pm(value: float, ci: float, fmt: str) -> str:
    return format(value, fmt) + ("" if math.isnan(ci) else " +- " + format(ci, fmt))


def link_lines(d: Mapping[str, Any]) -> list[str]:
    """The link as read: rate, hops, loss, flows, BDP, window, run length."""
    extra = []
    if d["cbr_mbps"]:
        extra.append(f"a {d['cbr_mbps']:g} Mbit/s CBR flow")
    if d["web_rate"]:
        extra.append(f"web flows ({d['web_rate']:g} new/s, PackMime)")
    window = "auto, far above the BDP: no hidden cap" if d["window_auto"] else "set by you"
    return [
        f"Link: {d['rate_mbps']:g} Mbit/s, {d['hops']}, random loss {_pct(d['loss'])}"
        + (f" (simulator {d['simulator']})" if d.get("simulator", "ns2") != "ns2" else ""),
        f"Flows: {d['flows']} x {d['cc']}" + (", " + ", ".join(extra) if extra else ""),
        f"BDP {d['bdp_pkts']:.1f} pkts of {d['packet_bytes']} B; "
        f"window_ {d['window_pkts']} pkts ({window})",
    ]


def rules_line(rules: pd.DataFrame) -> str:
    """The rules of thumb on one line, in packets."""
    parts = [f"{r.rule} {r.pkts:.0f} pkts ({r.source})" for r in rules.itertuples()]
    return "Rules of thumb: " + "; ".join(parts)


def queue_lines(
    rec: Mapping[str, Any], d: Mapping[str, Any], within: float, sets: Sequence[Sequence[int]]
) -> list[str]:
    """One queue's recommendation: buffer, utilisation, delay cost, loss, and its spread."""
    q = rec["queue"]
    if rec["buffer_pkts"] is None or (
        isinstance(rec["buffer_pkts"], float) and math.isnan(rec["buffer_pkts"])
    ):
        return [
            f"  {q}: {rec['reason']} (best utilisation {rec['best_utilisation']:.3f} "
            f"at {rec['best_buffer_pkts']} pkts)"
        ]
    b = int(rec["buffer_pkts"])
    how = "" if rec["reason"] == "knee" else f" [{rec['reason']}]"
    a_set, b_set = (",".join(str(s) for s in x) for x in sets)
    apart = rec["seed_sets_steps_apart"]
    spread = (
        "" if math.isnan(apart) else f" ({int(apart)} search step{'s' if apart != 1 else ''} apart)"
    )
    notes = []
    if b == int(rec["step_below_pkts"]) and b != int(rec["step_above_pkts"]):
        notes.append("the smallest buffer tested: the knee may lie lower (--buffer-min)")
    if rec["queue_loss_rate"] > LOSS_NOTE:
        notes.append(
            f"the queue drops {_pct(rec['queue_loss_rate'])} here; --max-loss or --max-delay "
            "ask for a buffer that meets a target"
        )
    return [
        f"  {q}: {b} pkts = {b * d['ms_per_pkt']:.1f} ms = {b / d['bdp_pkts']:.2f} BDP{how}; "
        f"utilisation {_pm(rec['link_utilisation'], rec['link_utilisation_ci'], '.3f')} "
        f"(best {rec['best_utilisation']:.3f} at {int(rec['best_buffer_pkts'])} pkts)",
        f"    delay cost: queueing {rec['qdelay_ms_mean']:.1f} ms mean, "
        f"{rec['qdelay_ms_p95']:.1f} p95, "
        f"{rec['qdelay_ms_p99']:.1f} p99; loss {_pct(rec['queue_loss_rate'])} queue + "
        f"{_pct(rec['link_loss_rate'])} link; goodput {rec['goodput_mbps']:.2f} Mbit/s; "
        f"Jain {rec['jain_index']:.3f}",
        f"    uncertainty: seeds {a_set} pick {_int(rec['set_a_pkts'])}, seeds {b_set} pick "
        f"{_int(rec['set_b_pkts'])}{spread}; tested neighbours {int(rec['step_below_pkts'])} and "
        f"{int(rec['step_above_pkts'])} pkts",
        *(f"    note: {n}" for n in notes),
        *(f"    note: {n}" for n in (guard_notes(rec, d) if "note_words" in d else [])),
        *(f"    {n}" for n in [d.get("queue_notes", {}).get(q, "")] if n),
    ]


def _int(x: Any) -> str:
    return "none" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{int(x)} pkts"


def answer_text(
    d: Mapping[str, Any],
    rules: pd.DataFrame,
    recs: pd.DataFrame,
    runs: pd.DataFrame,
    within: float,
    goal: str,
    sets: Sequence[Sequence[int]],
) -> str:
    """The whole answer (at most ~25 lines for two queues)."""
    stages = runs["stage"].value_counts()
    seeds = sorted(int(s) for s in runs["seed"].unique())
    lines = link_lines(d)
    lines.append(
        f"Runs: {len(runs)} ({stages.get('coarse', 0)} coarse + {stages.get('refine', 0)} "
        f"refining), {len(seeds)} seeds ({','.join(map(str, seeds))}), "
        f"{d['duration_s'] - d['warmup_s']:g} s measured after {d['warmup_s']:g} s warm-up; "
        f"{runs['buffer'].nunique()} buffers, {runs['buffer'].min()} to {runs['buffer'].max()} pkts"
    )
    lines.append(rules_line(rules))
    for key in ("rules_note", "cc_note"):
        if d.get(key):
            lines.append(f"  ({d[key]})")
    lines.append(f"Recommended buffer ({goal}):")
    for rec in recs.to_dict("records"):
        lines += queue_lines({str(k): v for k, v in rec.items()}, d, within, sets)
    return "\n".join(lines) + "\n"
