"""The guard rails after the runs: one note each under a recommended buffer, in the kind's words."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bufrepro.kit import prose

# Synchronisation drives a pick when the pick lies above the tested buffer nearest BDP/sqrt(n)
# and, at that buffer, more than half of the flows lost a packet in at least this share of the
# loss events (there the rule assumes desynchronised flows). Measured at 10 Mbit/s, 80 ms,
# DropTail 25 pkts, 2 seeds: equal RTTs 0.53 (4 flows) and 0.27 (16), RTTs spread 0.3: 0.25
# and 0.08; the equal-RTT picks are 1.4-2.8x BDP/sqrt(n) (issue 41), the spread ones nearer.
SYNC_DRIVES = 0.25


def _num(rec: Mapping[str, Any], key: str) -> float:
    value = rec.get(key, math.nan)
    return math.nan if value is None else float(value)


def standing(rec: Mapping[str, Any], d: Mapping[str, Any], limited: bool) -> str:
    """What sets the standing queue at the pick: the window, random loss, the AQM or the FIFO."""
    words, q = d["note_words"]["standing"], str(rec["queue"])
    link_loss, queue_loss = _num(rec, "link_loss_rate"), _num(rec, "queue_loss_rate")
    values = {
        "queue": q,
        "mean": _num(rec, "qdelay_ms_mean"),
        "link_loss": link_loss,
        "queue_loss": queue_loss,
        "target": d["aqm_targets"].get(q, 0),
    }
    if limited:
        return prose.fill(words["window"], **values)
    if link_loss > queue_loss:
        return prose.fill(words["loss"], **values)
    return prose.fill(words["aqm" if q in d["aqm_targets"] else "fifo"], **values)


def ecn_notes(queue: str, d: Mapping[str, Any]) -> list[str]:
    """With ECN on: a queue that does not mark, and a flow that is not ECN-capable (CBR)."""
    if not d.get("ecn"):
        return []
    words = d["note_words"]
    if queue not in d["ecn_queues"]:
        return [prose.fill(words["ecn_no_mark"], queue=queue)]
    return [prose.fill(words["ecn_cbr"], queue=queue)] if d["cbr_mbps"] else []


def notes(rec: Mapping[str, Any], d: Mapping[str, Any]) -> list[str]:
    """The pick's notes: search edge, window limit, few loss epochs, synchronisation, an AQM
    target below one packet's time, and what sets the standing queue."""
    words, q, b = d["note_words"], str(rec["queue"]), int(rec["buffer_pkts"])
    out = []
    if q == d.get("baseline_queue"):
        out.append(prose.fill(words["baseline"]))
    if b == int(rec["step_above_pkts"]) and b != int(rec["step_below_pkts"]):
        out.append(prose.fill(words["edge_high"], b=b))
    cap = d["flows"] * d["window_pkts"]
    limited = not d["window_auto"] and cap < d["bdp_pkts"] + b
    if limited:
        need = d["bdp_pkts"] + b
        out.append(
            prose.fill(
                words["window_limit"],
                flows=d["flows"],
                window=d["window_pkts"],
                cap=cap,
                need=need,
            )
        )
    epochs = _num(rec, "loss_epochs")
    if not math.isnan(epochs) and epochs < d["min_epochs"]:
        measure = d["duration_s"] - d["warmup_s"]
        marks = d.get("ecn") and q in d["ecn_queues"]
        out.append(
            prose.fill(
                words["few_epochs"],
                epochs=epochs,
                min_epochs=d["min_epochs"],
                measure_s=measure * d["min_epochs"] / max(epochs, 1.0),
            )
            + (prose.fill(words["few_epochs_ecn"], queue=q) if marks else "")
        )
    share, events = _num(rec, "rule_sync_epoch_share"), _num(rec, "rule_loss_epochs")
    if d["flows"] > 1 and not math.isnan(share) and events > 0:
        rate = _num(rec, "rule_sync_rate_mean")
        at = int(rec["rule_buffer_pkts"])
        out.append(prose.fill(words["sync"], share=share, epochs=events, rate=rate, at=at))
        if share >= SYNC_DRIVES and b > at:
            remedy = words["sync_remedy"] if d["rtt_spread"] == 0 else ""
            out.append(prose.fill(words["sync_drives"], remedy=remedy))
    out += ecn_notes(q, d)
    target = d["aqm_targets"].get(q)
    if target is not None and d["ms_per_pkt"] > target:
        out.append(
            prose.fill(words["target_above"], ms_per_pkt=d["ms_per_pkt"], queue=q, target=target)
        )
    out.append(standing(rec, d, limited))
    return out
