"""An experiment's answer: the wide table, the rules of thumb, the recommendation, its spread."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from bufrepro.kit import stats, units
from bufrepro.pipeline.experiments import plan, run, search

# The wide table's metrics, in its column order (each with its seed-to-seed interval, <m>_ci).
METRICS = (
    "throughput_mbps",
    "link_utilisation",
    "goodput_mbps",
    "qdelay_ms_mean",
    "qdelay_ms_p95",
    "qdelay_ms_p99",
    "queue_loss_rate",
    "link_loss_rate",
    "jain_index",
    "loss_epochs",
    "sync_epoch_share",
    "sync_rate_mean",
)


def runs_frame(exp: plan.Resolved) -> pd.DataFrame:
    """A row per run of every stage: queue, buffer, seed, stage and every metric."""
    rows = []
    for stage in search.STAGES:
        for p in plan.stage_points(exp, stage):
            values = run.metrics(p)
            rows.append(
                {
                    "queue": p.values[0][1],
                    "buffer": int(p.values[1][1]),
                    "seed": p.seed,
                    "stage": stage,
                    **values,
                }
            )
    return (
        pd.DataFrame(rows)
        .sort_values(["queue", "buffer", "seed"], kind="stable")
        .reset_index(drop=True)
    )


def wide_table(runs: pd.DataFrame, describe: Mapping[str, Any]) -> pd.DataFrame:
    """A row per queue x buffer: the buffer in packets, ms of drain and BDPs; each metric's mean
    over the seeds and the half-width of its 95% t interval (<m>_ci)."""
    rows = []
    for (queue, buffer), group in runs.groupby(["queue", "buffer"], sort=False):
        row: dict[str, Any] = {
            "queue": queue,
            "buffer_pkts": buffer,
            "buffer_ms": buffer * describe["ms_per_pkt"],
            "buffer_bdp": buffer / describe["bdp_pkts"],
            "seeds": len(group),
        }
        for m in METRICS:
            if m not in group:  # a run parsed before this metric was measured
                row[m], row[f"{m}_ci"] = math.nan, math.nan
                continue
            values = [float(v) for v in group[m]]
            n, mean, _ = stats.mean_sd(values)
            low, high = stats.t_interval(values)
            row[m] = mean
            row[f"{m}_ci"] = (high - low) / 2 if n > 1 else math.nan
        rows.append(row)
    order = {q: i for i, q in enumerate(runs["queue"].drop_duplicates())}
    table = pd.DataFrame(rows)
    return table.sort_values(
        ["queue", "buffer_pkts"], key=lambda c: c.map(order) if c.name == "queue" else c
    ).reset_index(drop=True)


@dataclass(frozen=True)
class Pick:
    """One queue's recommended buffer, and what decided it."""

    queue: str
    buffer: int | None
    best_buffer: int
    best_util: float
    reason: str


def pick(
    table: pd.DataFrame,
    queue: str,
    within: float,
    max_delay_ms: float | None,
    max_loss: float | None,
) -> Pick:
    """The smallest buffer within `within` of the best utilisation that meets the targets (p95
    queueing delay, queue-drop rate); else the meeting buffer with the best utilisation."""
    rows = table[table["queue"] == queue].sort_values("buffer_pkts")
    util = dict(zip(rows["buffer_pkts"].astype(int), rows["link_utilisation"], strict=True))
    best_b = max(util, key=lambda b: (util[b], -b))
    ok = rows
    if max_delay_ms is not None:
        ok = ok[ok["qdelay_ms_p95"] <= max_delay_ms]
    if max_loss is not None:
        ok = ok[ok["queue_loss_rate"] <= max_loss]
    near = ok[ok["link_utilisation"] >= (1 - within) * util[best_b]]
    if len(near):
        return Pick(queue, int(near["buffer_pkts"].iloc[0]), best_b, util[best_b], "knee")
    if len(ok):
        b = int(
            ok.sort_values(["link_utilisation", "buffer_pkts"], ascending=[False, True])[
                "buffer_pkts"
            ].iloc[0]
        )
        return Pick(queue, b, best_b, util[best_b], "targets cost utilisation")
    return Pick(queue, None, best_b, util[best_b], "no buffer tested meets the targets")


def targets(block: Mapping[str, Any]) -> tuple[float, float | None, float | None]:
    """(within, max p95 queueing delay in ms or None, max queue-drop rate or None)."""
    t = block["targets"]
    within = units.fraction(t["within"], "targets.within")
    delay = (
        units.seconds(str(t["max_delay"]), "targets.max_delay") * 1000 if t["max_delay"] else None
    )
    loss = units.fraction(t["max_loss"], "targets.max_loss") if t["max_loss"] != "" else None
    return within, delay, loss


# The two seed sets the recommendation is repeated on (search.seed_sets).
seed_sets = search.seed_sets


def recommend(
    runs: pd.DataFrame, block: Mapping[str, Any], describe: Mapping[str, Any]
) -> pd.DataFrame:
    """A row per queue: the pick on all seeds and on each seed set, the tested neighbours, how
    many search steps the two seed sets' picks lie apart, and the pick's delay and loss."""
    within, delay, loss = targets(block)
    table = wide_table(runs, describe)
    set_a, set_b = seed_sets(list(block["seeds"]))
    rows = []
    for queue in table["queue"].drop_duplicates():
        p = pick(table, queue, within, delay, loss)
        pa = pick(wide_table(runs[runs["seed"].isin(set_a)], describe), queue, within, delay, loss)
        pb = pick(wide_table(runs[runs["seed"].isin(set_b)], describe), queue, within, delay, loss)
        tested = sorted(int(b) for b in table[table["queue"] == queue]["buffer_pkts"])
        row: dict[str, Any] = {
            "queue": queue,
            "buffer_pkts": p.buffer,
            "reason": p.reason,
            "best_buffer_pkts": p.best_buffer,
            "best_utilisation": p.best_util,
        }
        row.update(set_a_pkts=pa.buffer, set_b_pkts=pb.buffer)
        row["seed_sets_steps_apart"] = (
            search.steps_apart(tested, pa.buffer, pb.buffer)
            if pa.buffer and pb.buffer
            else math.nan
        )
        row.update(at_rule(table, queue, tested, describe))
        if p.buffer is not None:
            low, high = search.step_around(tested, p.buffer)
            at = table[(table["queue"] == queue) & (table["buffer_pkts"] == p.buffer)].iloc[0]
            row.update(step_below_pkts=low, step_above_pkts=high)
            row.update({m: at[m] for m in METRICS})
            row.update({f"{m}_ci": at[f"{m}_ci"] for m in METRICS})
        rows.append(row)
    return pd.DataFrame(rows)


# What the answer reports at the tested buffer nearest BDP/sqrt(n): whether the flows' losses
# were synchronised there decides whether synchronisation lifted the pick above the rule.
AT_RULE = ("loss_epochs", "sync_epoch_share", "sync_rate_mean")


def at_rule(
    table: pd.DataFrame, queue: str, tested: Sequence[int], describe: Mapping[str, Any]
) -> dict[str, Any]:
    """rule_buffer_pkts (the tested buffer nearest BDP/sqrt(n)) and rule_<m> there."""
    if "flows" not in describe:
        return {}
    rule = describe["bdp_pkts"] / math.sqrt(describe["flows"])
    near = min(tested, key=lambda b: (abs(math.log(b / rule)), b))
    at = table[(table["queue"] == queue) & (table["buffer_pkts"] == near)].iloc[0]
    return {"rule_buffer_pkts": near, **{f"rule_{m}": at[m] for m in AT_RULE}}


def rules_frame(rules: Sequence[Mapping[str, Any]], describe: Mapping[str, Any]) -> pd.DataFrame:
    """The rules of thumb, in packets, ms of drain and BDPs."""
    frame = pd.DataFrame(list(rules))
    frame["ms"] = frame["pkts"] * describe["ms_per_pkt"]
    frame["bdp"] = frame["pkts"] / describe["bdp_pkts"]
    return frame
