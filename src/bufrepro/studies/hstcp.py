"""The hstcp study: Barman, Smaragdakis & Matta, HighSpeed TCP utilisation vs buffer (seed 003).

Simulation: ns-2's native HighSpeed TCP (windowOption_ 8) over one bottleneck, DropTail and
(Adaptive) RED, buffer = a fraction of the R1-R2 bandwidth-delay product (Figs. 3, 4, 7, 8), and
two competing flows under- and over-buffered (Figs. 5-6). Model: bufrepro.hstcp_model. The
paper prints no table: the "published" side is its claims (published/hstcp_claims.csv).

At 1-2.5 Gb/s a full ns trace is out of the question, so the runs do not use the generic
out.tr -> parse_trace steps: rules/studies/hstcp.smk runs ns with its bottleneck stream piped
into awk/hstcp.awk (scripts/run_hstcp.sh), and makes the model table, the two-flow runs, the
comparison and the figures itself (Study.own_rules).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from bufrepro.claims import Check, verdict
from bufrepro.studies.base import Block, Study

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from bufrepro.grid import RunPoint

KEYS = ("scenario", "queue", "buffer_frac")
SEED_FILE = "003_fffbe5369a667c8f.txt"
TCP_HEADER_BYTES = 40
# Bottleneck nodes: the template creates R1 and R2 first.
R1, R2 = 0, 1
# Counters are sampled often enough that the byte counters (signed 32-bit) cannot wrap twice
# between two samples: at most 2^31 bytes may leave the bottleneck per sample interval.
WRAP_BYTES = 2**31
TWOFLOW_CASES = ("under", "over")
# Paper figure of each (scenario, queue) utilisation plot.
UTIL_FIGURES = {
    ("s1", "DropTail"): "fig3_droptail_s1",
    ("s2", "DropTail"): "fig4_droptail_s2",
    ("s1", "RED"): "fig7_red_s1",
    ("s2", "RED"): "fig8_red_s2",
}
FIGURES = (
    *UTIL_FIGURES.values(),
    "fig5_twoflow_under",
    "fig6_twoflow_over",
    "loss_vs_buffer",
    "fairness_vs_buffer",
)
UNSTATED = (
    "topology.access_speedup",
    "topology.sink_delay_ms",
    "topology.access_queue_pkts",
    "tcp.window_pkts",
    "tcp.max_ssthresh_pkts",
    "tcp.tick_s",
    "tcp.start_s",
    "tcp.start_jitter_s",
    "red.min_th_frac",
    "red.max_th_frac",
    "red.max_p",
    "red.q_weight",
    "red.gentle",
    "measure.duration_s",
    "measure.warmup_s",
    "twoflow.rtts_ms",
    "twoflow.under_frac",
    "twoflow.over_frac",
    "twoflow.duration_s",
    "packet_bytes",
)
REPORTED = (
    "link_utilisation",
    "loss_rate",
    "queue_avg_pkts",
    "queue_avg_frac",
    "drops",
    "goodput_mbps",
    "jain_index",
    "tput_ratio_short_long",
    "tput_min_max_ratio",
)
REPORT_METRICS = ("link_utilisation", "loss_rate", "queue_avg_frac", "jain_index")


# ------------------------------------------------------------------------------ scenarios


def bdp_pkts(scenario: Mapping[str, Any], packet_bytes: int) -> int:
    """BDP of the R1-R2 link alone (capacity x 2 x its delay), in packets (the paper's axis)."""
    bits: float = scenario["bottleneck_mbps"] * 1e6 * 2 * scenario["bottleneck_delay_ms"] / 1000
    return max(1, round(bits / (8 * packet_bytes)))


def buffer_pkts(fraction: float, bdp: int) -> int:
    """round-half-up(fraction x BDP), at least 1 (as hstcp_model.buffer_packets_for)."""
    return max(1, math.floor(fraction * bdp + 0.5))


def rtts_ms(scenario: Mapping[str, Any]) -> list[float]:
    """n propagation RTTs evenly spaced over [rtt_min_ms, rtt_max_ms] (as hstcp_model)."""
    n, lo, hi = int(scenario["n_flows"]), scenario["rtt_min_ms"], scenario["rtt_max_ms"]
    if n == 1:
        return [float(lo)]
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def flows(block: Block, scenario: Mapping[str, Any], rtts: Sequence[float]) -> list[dict[str, Any]]:
    """One flow per RTT (fid in RTT order): its source access delay gives it that RTT.

    RTT = 2 (access + bottleneck + sink access delay); transmission times (microseconds) are
    left out, as in the paper's RTTs.
    """
    sink = block["topology"]["sink_delay_ms"]
    out = []
    for fid, rtt in enumerate(sorted(rtts)):
        access = rtt / 2 - scenario["bottleneck_delay_ms"] - sink
        out.append({"fid": fid, "rtt_ms": round(rtt, 9), "access_delay_ms": round(access, 9)})
    return out


def check(block: Block) -> list[str]:
    """Problems the schema cannot see (each names its key)."""
    problems = []
    scenarios = block["scenarios"]
    for name in block["grid"]["scenario"]:
        if name not in scenarios:
            problems.append(
                f"config key hstcp.grid.scenario: {name!r} is not defined under hstcp.scenarios "
                f"(defined: {sorted(scenarios)})"
            )
    measure = block["measure"]
    pkt = block["packet_bytes"]
    for name, sc in sorted(scenarios.items()):
        if sc["rtt_min_ms"] > sc["rtt_max_ms"]:
            problems.append(f"config key hstcp.scenarios.{name}.rtt_min_ms: above rtt_max_ms")
        floor = 2 * (sc["bottleneck_delay_ms"] + block["topology"]["sink_delay_ms"])
        if sc["rtt_min_ms"] <= floor:
            problems.append(
                f"config key hstcp.scenarios.{name}.rtt_min_ms: {sc['rtt_min_ms']} ms must exceed "
                f"2 x (bottleneck delay + sink delay) = {floor} ms"
            )
        per_sample = sc["bottleneck_mbps"] * 1e6 / 8 * measure["sample_s"]
        if per_sample >= WRAP_BYTES:
            problems.append(
                f"config key hstcp.measure.sample_s: {measure['sample_s']} s lets "
                f"{per_sample:.3g} B leave the {name} bottleneck between samples; the 32-bit "
                f"byte counters need fewer than 2^31 (sample more often)"
            )
        if sc["bottleneck_mbps"] * 1e6 / (8 * pkt) * measure["duration_s"] >= WRAP_BYTES:
            problems.append(f"config key hstcp.measure.duration_s: too long for {name}")
    tf = block["twoflow"]
    per_sample = tf["bottleneck_mbps"] * 1e6 / 8 * measure["sample_s"]
    if per_sample >= WRAP_BYTES:
        problems.append("config key hstcp.measure.sample_s: too coarse for the two-flow link")
    if min(tf["rtts_ms"]) <= 2 * (tf["bottleneck_delay_ms"] + block["topology"]["sink_delay_ms"]):
        problems.append("config key hstcp.twoflow.rtts_ms: below the two-flow path's delay")
    if tf["warmup_s"] >= tf["duration_s"]:
        problems.append("config key hstcp.twoflow.warmup_s: must be below twoflow.duration_s")
    tcp = block["tcp"]
    for key, warm in (("measure", measure["warmup_s"]), ("twoflow", tf["warmup_s"])):
        if tcp["start_s"] + tcp["start_jitter_s"] >= warm:
            problems.append(
                f"config key hstcp.tcp.start_jitter_s: every flow must start before "
                f"hstcp.{key}.warmup_s ({warm} s), but start_s + start_jitter_s = "
                f"{tcp['start_s'] + tcp['start_jitter_s']} s"
            )
    return problems


def _common(block: Block) -> dict[str, Any]:
    red = block["red"]
    pkt = block["packet_bytes"]
    return {
        "study": "hstcp",
        "packet_bytes": pkt,
        "tcp_payload_bytes": pkt - TCP_HEADER_BYTES,
        "tcp": dict(block["tcp"]),
        "hstcp": dict(block["hstcp"]),
        "start_s": block["tcp"]["start_s"],
        "start_jitter_s": block["tcp"]["start_jitter_s"],
        "sink_delay_ms": block["topology"]["sink_delay_ms"],
        "access_queue_pkts": block["topology"]["access_queue_pkts"],
        "red": dict(red),
        "red_linterm": round(1.0 / red["max_p"], 6),
        "red_adaptive": 1 if red["adaptive"] else 0,
        "red_gentle": "true" if red["gentle"] else "false",
        "sample_s": block["measure"]["sample_s"],
        "trace_file": "bottleneck.fifo",
        "trace_level": block["trace_level"],
        "timeseries_file": "timeseries.tsv",
    }


def _link(
    block: Block, mbps: float, delay_ms: float, queue: str, buf: int, bdp: int
) -> dict[str, Any]:
    red = block["red"]
    base = min(bdp, buf)
    min_th = max(1.0, red["min_th_frac"] * base)
    max_th = max(min_th + 1.0, red["max_th_frac"] * base)
    return {
        "bottleneck_mbps": mbps,
        "bottleneck_delay_ms": delay_ms,
        "capacity_bps": round(mbps * 1e6),
        "access_mbps": mbps * block["topology"]["access_speedup"],
        "queue": queue,
        "buffer_pkts": buf,
        "bdp_pkts": bdp,
        "red_min_th": round(min_th, 6),
        "red_max_th": round(max_th, 6),
    }


def params(block: Block, point: RunPoint) -> dict[str, Any]:
    """Template variables of one grid run (scenario x queue x buffer fraction x seed)."""
    sc = block["scenarios"][point.get("scenario")]
    bdp = bdp_pkts(sc, block["packet_bytes"])
    frac = point.get("buffer_frac")
    buf = buffer_pkts(frac, bdp)
    return {
        **_common(block),
        **_link(
            block, sc["bottleneck_mbps"], sc["bottleneck_delay_ms"], point.get("queue"), buf, bdp
        ),
        "seed": point.seed,
        "scenario": point.get("scenario"),
        "buffer_frac": frac,
        "flows": flows(block, sc, rtts_ms(sc)),
        "warmup_s": block["measure"]["warmup_s"],
        "duration_s": block["measure"]["duration_s"],
        "timeseries_s": 0,
    }


def twoflow_bdp(block: Block) -> int:
    """BDP of the two-flow path at the flows' mean RTT (under/over fractions are of it)."""
    tf = block["twoflow"]
    mean_rtt = sum(tf["rtts_ms"]) / len(tf["rtts_ms"])
    bits: float = tf["bottleneck_mbps"] * 1e6 * mean_rtt / 1000
    pkt: int = block["packet_bytes"]
    return max(1, round(bits / (8 * pkt)))


def twoflow_record(block: Block, case: str, seed: int) -> dict[str, Any]:
    """params.json record of one two-flow run (Figs. 5-6): case 'under' or 'over'."""
    if case not in TWOFLOW_CASES:
        raise ValueError(f"two-flow case {case!r}; known: {TWOFLOW_CASES}")
    tf = block["twoflow"]
    bdp = twoflow_bdp(block)
    frac = tf[f"{case}_frac"]
    buf = buffer_pkts(frac, bdp)
    sc = {"bottleneck_delay_ms": tf["bottleneck_delay_ms"]}
    p = {
        **_common(block),
        **_link(block, tf["bottleneck_mbps"], tf["bottleneck_delay_ms"], "DropTail", buf, bdp),
        "seed": seed,
        "scenario": f"twoflow-{case}",
        "buffer_frac": frac,
        "flows": flows(block, sc, tf["rtts_ms"]),
        "warmup_s": tf["warmup_s"],
        "duration_s": tf["duration_s"],
        "timeseries_s": tf["timeseries_s"],
    }
    return {
        "study": "hstcp",
        "case": case,
        "seed": seed,
        "buffer_frac": frac,
        "template": "hstcp.tcl.j2",
        "params": p,
    }


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """awk/hstcp.awk parameters of a grid run (see scripts/run_hstcp.sh)."""
    p = params(block, point)
    return awk_args(p)


def awk_args(p: Mapping[str, Any]) -> dict[str, Any]:
    """awk/hstcp.awk parameters from a run's template variables."""
    return {
        "t0": p["warmup_s"],
        "t1": p["duration_s"],
        "t_end": p["duration_s"],
        "from": R1,
        "to": R2,
        "bps": p["capacity_bps"],
        "pkt": p["packet_bytes"],
    }


# ------------------------------------------------------------------------------ model


def model_scenario(block: Block, name: str) -> Any:
    """hstcp_model.Scenario of a configured scenario (SCENARIO_1/2 for the paper's s1/s2)."""
    from bufrepro import hstcp_model as hm

    sc = block["scenarios"][name]
    return hm.Scenario(
        name=name,
        capacity_bps=sc["bottleneck_mbps"] * 1e6,
        packet_bytes=block["packet_bytes"],
        rtts_s=tuple(r / 1000 for r in rtts_ms(sc)),
        bdp_packets=bdp_pkts(sc, block["packet_bytes"]),
    )


def model_table(block: Block) -> pd.DataFrame:
    """The model's utilisation, loss and queueing delay per scenario, queue and buffer fraction.

    Fractions: the grid's, plus model.extra_fractions for smooth curves (on_grid says which).
    """
    import pandas as pd

    from bufrepro import hstcp_model as hm

    m = block["model"]
    red = hm.RedParams(
        max_p=block["red"]["max_p"],
        min_th_fraction=block["red"]["min_th_frac"],
        max_th_fraction=block["red"]["max_th_frac"],
        gentle=block["red"]["gentle"],
    )
    grid_fracs = sorted(set(block["grid"]["buffer_frac"]))
    fracs = sorted(set(grid_fracs) | set(m["extra_fractions"]))
    rows = []
    for name in block["grid"]["scenario"]:
        scenario = model_scenario(block, name)
        for queue in block["grid"]["queue"]:
            for frac in fracs:
                k = buffer_pkts(frac, scenario.bdp_packets)
                res = hm.solve_fixed_point(
                    scenario, k, "red" if queue == "RED" else "droptail", form=m["form"], red=red
                )
                rows.append(
                    {
                        "scenario": name,
                        "queue": queue,
                        "buffer_frac": frac,
                        "buffer_pkts": k,
                        "on_grid": frac in grid_fracs,
                        "utilisation": res.utilisation,
                        "loss_rate": res.loss_prob,
                        "queueing_delay_ms": res.queueing_delay_s * 1000,
                        "converged": res.converged,
                        "unique": res.unique,
                        "warning": res.warning or "",
                    }
                )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------ comparison

# Summary metric of each claimed quantity.
CLAIM_METRICS = {"utilization": "link_utilisation", "throughput": "link_utilisation"}
CLAIM_METRICS["loss_rate"] = "loss_rate"
MODEL_COLUMNS = {"link_utilisation": "utilisation", "loss_rate": "loss_rate"}
Curves = Mapping[tuple[str, str], Sequence[tuple[float, float]]]
CheckFn = Callable[[Curves, Mapping[str, float]], list[Check]]


def claim_cells(row: Mapping[Any, Any], cells: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (scenario, queue) cells a claim of published/hstcp_claims.csv speaks about.

    Its note names the queue and the scenario ("DropTail, 1 Gbps", "RED, 2.5 Gbps") when the
    claim is tied to one figure; otherwise (abstract, conclusion) it covers every cell.
    """
    note = str(row.get("note") or "")
    queue = next((q for q in ("DropTail", "RED") if re.search(rf"\b{q}\b", note)), None)
    scen = "s2" if "2.5 Gbps" in note else ("s1" if "1 Gbps" in note else None)
    return [
        (s, q) for s, q in cells if (queue is None or q == queue) and (scen is None or s == scen)
    ]


def claim_fractions(row: Mapping[Any, Any], fractions: Sequence[float]) -> list[float]:
    """Buffer fractions a claim covers: its own, every one at or above it ('>= 0.1' in the note),
    every one below it (a qualitative claim about smaller buffers), or all (none given)."""
    frac = row.get("buffer_fraction")
    note = str(row.get("note") or "")
    if frac is None or (isinstance(frac, float) and math.isnan(frac)):
        return list(fractions)
    frac = float(frac)
    if ">= " in note and "buffer ratio" in note:
        return [f for f in fractions if f >= frac - 1e-12]
    if "< " in note:
        return [f for f in fractions if f < frac - 1e-12]
    return [f for f in fractions if abs(f - frac) < 1e-9]


def relation_holds(
    relation: str, value: float, claimed: float, quantity: str, th: Mapping[str, float]
) -> bool:
    """Whether `value` satisfies the claim: '>=' literally; '~' and '=' within util_tol (absolute,
    utilisation) or within a factor loss_factor (loss rates, which the paper gives as powers of
    ten)."""
    if math.isnan(value):
        return False
    if relation == ">=":
        return value >= claimed
    if relation == "<=":
        return value <= claimed
    if quantity == "loss_rate":
        return claimed / th["loss_factor"] <= value <= claimed * th["loss_factor"]
    return abs(value - claimed) <= th["util_tol"]


def _lookup(df: pd.DataFrame, scen: str, queue: str, frac: float, col: str) -> float:
    hit = df[
        (df["scenario"] == scen)
        & (df["queue"] == queue)
        & ((df["buffer_frac"] - frac).abs() < 1e-9)
    ]
    return float(hit[col].iloc[0]) if not hit.empty else math.nan


def diff_claims(
    published: pd.DataFrame, summary: pd.DataFrame, model: pd.DataFrame, th: Mapping[str, float]
) -> pd.DataFrame:
    """Each quantitative claim beside our simulated mean (95% CI) and the model, per cell."""
    import pandas as pd

    cells = sorted({(s, q) for s, q in zip(summary["scenario"], summary["queue"], strict=True)})
    fractions = sorted(summary["buffer_frac"].unique())
    rows = []
    for idx, claim in enumerate(published.to_dict("records")):
        claimed = claim.get("value")
        if claimed is None or (isinstance(claimed, float) and math.isnan(claimed)):
            continue  # qualitative: a claim of claims.csv, not a row of the diff
        metric = CLAIM_METRICS[str(claim["quantity"])]
        targets = [
            (s, q, f)
            for s, q in claim_cells(claim, cells)
            for f in claim_fractions(claim, fractions)
        ]
        if not targets:
            targets = [(math.nan, math.nan, math.nan)]  # type: ignore[list-item]
        for scen, queue, frac in targets:
            sub = summary[
                (summary["scenario"] == scen)
                & (summary["queue"] == queue)
                & ((summary["buffer_frac"] - frac).abs() < 1e-9)
                & (summary["metric"] == metric)
            ]
            mean = float(sub["mean"].iloc[0]) if not sub.empty else math.nan
            low = float(sub["ci_low"].iloc[0]) if not sub.empty else math.nan
            high = float(sub["ci_high"].iloc[0]) if not sub.empty else math.nan
            n = int(sub["n"].iloc[0]) if not sub.empty else 0
            mod = (
                _lookup(model, scen, queue, frac, MODEL_COLUMNS[metric])
                if not sub.empty
                else math.nan
            )
            rel = str(claim["relation"])
            rows.append(
                {
                    "seed_file": claim["seed_file"],
                    "row": idx + 1,
                    "section": claim["section"],
                    "quantity": claim["quantity"],
                    "relation": rel,
                    "published": float(claimed),
                    "scenario": scen,
                    "queue": queue,
                    "buffer_frac": frac,
                    "metric": metric,
                    "ours_mean": mean,
                    "ci_low": low,
                    "ci_high": high,
                    "ours_n": n,
                    "model": mod,
                    "abs_diff": mean - float(claimed),
                    "rel_diff": (mean - float(claimed)) / float(claimed),
                    "in_ci": bool(low <= float(claimed) <= high),
                    "sim_agrees": relation_holds(
                        rel, mean, float(claimed), str(claim["quantity"]), th
                    ),
                    "model_agrees": relation_holds(
                        rel, mod, float(claimed), str(claim["quantity"]), th
                    ),
                    "has_counterpart": not math.isnan(mean),
                }
            )
    return pd.DataFrame(rows)


def model_vs_sim(summary: pd.DataFrame, model: pd.DataFrame) -> pd.DataFrame:
    """Per grid cell: simulated utilisation and loss (mean, 95% CI) beside the model's."""
    import pandas as pd

    rows = []
    for key, g in summary.groupby(list(KEYS), sort=True):
        scen, queue, frac = str(key[0]), str(key[1]), float(cast(float, key[2]))
        row: dict[str, Any] = {"scenario": scen, "queue": queue, "buffer_frac": frac}
        for metric, col in MODEL_COLUMNS.items():
            m = g[g["metric"] == metric]
            mean = float(m["mean"].iloc[0]) if not m.empty else math.nan
            mod = _lookup(model, scen, queue, frac, col)
            row[f"sim_{col}"] = mean
            row[f"sim_{col}_ci_low"] = float(m["ci_low"].iloc[0]) if not m.empty else math.nan
            row[f"sim_{col}_ci_high"] = float(m["ci_high"].iloc[0]) if not m.empty else math.nan
            row[f"model_{col}"] = mod
            row[f"diff_{col}"] = mean - mod
        rows.append(row)
    return pd.DataFrame(rows)


def _cells(summary: pd.DataFrame) -> pd.DataFrame:
    from bufrepro.stats import wide_means

    return wide_means(summary, KEYS)


def _curve(cells: pd.DataFrame, scen: str, queue: str, col: str) -> list[tuple[float, float]]:
    g = cells[(cells["scenario"] == scen) & (cells["queue"] == queue)].sort_values("buffer_frac")
    return [
        (float(f), float(v))
        for f, v in zip(g["buffer_frac"], g[col], strict=True)
        if not math.isnan(float(v))
    ]


def _at(curve: Sequence[tuple[float, float]], frac: float) -> float:
    return next((v for f, v in curve if abs(f - frac) < 1e-9), math.nan)


def check_util_at(frac: float, target: float, tol_key: str | None) -> CheckFn:
    """Checks: utilisation at `frac` >= target (- th[tol_key]) per (scenario, queue) curve."""

    def run(
        curves: Mapping[tuple[str, str], Sequence[tuple[float, float]]], th: Mapping[str, float]
    ) -> list[Check]:
        out = []
        bound = target - (th[tol_key] if tol_key else 0.0)
        for (scen, queue), curve in sorted(curves.items()):
            u = _at(curve, frac)
            if math.isnan(u):
                continue
            out.append(
                Check(
                    f"{scen} {queue}, buffer {frac:g} BDP",
                    u >= bound,
                    f"utilisation {u:.4f} (bound {bound:.3f})",
                )
            )
        return out

    return run


def check_sharp_fall(
    curves: Mapping[tuple[str, str], Sequence[tuple[float, float]]], th: Mapping[str, float]
) -> list[Check]:
    """Below 10% of the BDP utilisation falls by at least fall_min, and its slope per unit of
    buffer fraction is at least sharp_ratio times the slope above 10%."""
    out = []
    for (scen, queue), curve in sorted(curves.items()):
        below = [(f, u) for f, u in curve if f < 0.1 - 1e-9]
        u10 = _at(curve, 0.1)
        above = [(f, u) for f, u in curve if f > 0.1 + 1e-9]
        if not below or math.isnan(u10) or not above:
            continue
        f_lo, u_lo = below[0]
        f_hi, u_hi = above[-1]
        fall = u10 - u_lo
        slope_below = fall / (0.1 - f_lo)
        slope_above = (u_hi - u10) / (f_hi - 0.1)
        ok = fall >= th["fall_min"] and slope_below >= th["sharp_ratio"] * max(slope_above, 1e-12)
        out.append(
            Check(
                f"{scen} {queue}",
                bool(ok),
                f"utilisation {u_lo:.3f} at {f_lo:g}, {u10:.3f} at 0.1, {u_hi:.3f} at {f_hi:g}; "
                f"slope below/above 0.1: {slope_below:.3f}/{slope_above:.3f}",
            )
        )
    return out


def evaluate(
    block: Block,
    summary: pd.DataFrame,
    model: pd.DataFrame,
    twoflow: pd.DataFrame | None,
    published: pd.DataFrame,
) -> pd.DataFrame:
    """Every claim's verdict and evidence, on the simulation and on the model."""
    import pandas as pd

    th = dict(block["claims"])
    cells = _cells(summary)
    keys = sorted(
        {(str(s), str(q)) for s, q in zip(cells["scenario"], cells["queue"], strict=True)}
    )
    mcells = model[model["on_grid"]] if "on_grid" in model else model
    sim = {k: _curve(cells, *k, "link_utilisation") for k in keys}
    mod = {k: _curve(mcells.rename(columns={"utilisation": "u"}), *k, "u") for k in keys}

    def by_queue(curves: Mapping[tuple[str, str], Any], queue: str) -> dict[tuple[str, str], Any]:
        return {k: v for k, v in curves.items() if k[1] == queue}

    def agree(queue: str) -> tuple[list[Check], list[Check]]:
        checks = []
        for key in sorted(by_queue(sim, queue)):
            for f, u in sim[key]:
                m = _at(mod[key], f)
                if math.isnan(m):
                    continue
                checks.append(
                    Check(
                        f"{key[0]} {queue}, buffer {f:g}",
                        abs(u - m) <= th["agree_tol"],
                        f"simulation {u:.4f}, model {m:.4f}",
                    )
                )
        return checks, []

    def fairness(queue: str) -> list[Check]:
        checks = []
        for key in sorted(by_queue(sim, queue)):
            j = _curve(cells, *key, "jain_index")
            if len(j) >= 2:
                (f0, j0), (f1, j1) = j[0], j[-1]
                checks.append(
                    Check(
                        f"{key[0]} {queue}, Jain index",
                        j1 > j0,
                        f"{j0:.4f} at {f0:g} BDP -> {j1:.4f} at {f1:g} BDP",
                    )
                )
        if twoflow is not None and not twoflow.empty and queue == "DropTail":
            r = {
                str(c): float(v)
                for c, v in zip(twoflow["case"], twoflow["tput_ratio_short_long"], strict=True)
            }
            if {"under", "over"} <= set(r):
                u, o = (
                    r["under"],
                    r["over"],
                )
                checks.append(
                    Check(
                        "two flows (Figs. 5-6), short/long-RTT throughput ratio",
                        abs(o - 1) < abs(u - 1),
                        f"under-buffered {u:.3f}, over-buffered {o:.3f}",
                    )
                )
        return checks

    rows = []
    specs = [
        (
            "util_90_at_10",
            "At 10% of the BDP, HSTCP sustains at least 90% utilisation (abstract, III.A, V).",
            "Per scenario: mean utilisation at buffer fraction 0.1 >= 0.90.",
            check_util_at(0.1, 0.90, None),
        ),
        (
            "util_98_at_20",
            "At 20% of the BDP, utilisation reaches about 98% (abstract, V).",
            "Per scenario: mean utilisation at buffer fraction 0.2 >= 0.98 - util_tol.",
            check_util_at(0.2, 0.98, "util_tol"),
        ),
        (
            "sharp_fall_below_10",
            "Below 10% of the BDP utilisation falls sharply (abstract, V).",
            "Per scenario: utilisation at 0.1 minus at the smallest fraction >= fall_min, and "
            "the slope below 0.1 >= sharp_ratio x the slope above.",
            check_sharp_fall,
        ),
    ]
    for claim_id, statement, definition, fn in specs:
        for queue in ("DropTail", "RED"):
            s_checks = fn(by_queue(sim, queue), th)
            m_checks = fn(by_queue(mod, queue), th)
            rows.append(_claim_row(claim_id, queue, statement, definition, s_checks, m_checks, th))
    for queue in ("DropTail", "RED"):
        checks, _ = agree(queue)
        rows.append(
            _claim_row(
                "model_sim_agree",
                queue,
                "Model and simulation agree (III.A: 'quite close'; IV.A: 'close agreement').",
                "Per scenario and buffer fraction: |simulated - model utilisation| <= agree_tol.",
                checks,
                checks,
                th,
            )
        )
    for queue in ("DropTail", "RED"):
        checks = fairness(queue)
        rows.append(
            _claim_row(
                "buffer_reduces_rtt_unfairness",
                queue,
                "A larger buffer reduces the RTT unfairness between competing flows "
                "(III.A, Figs. 5-6).",
                "Per scenario: Jain's index over the flows' throughput is higher at the largest "
                "than at the smallest buffer; two flows: the short/long-RTT throughput ratio is "
                "closer to 1 over-buffered than under-buffered (DropTail).",
                checks,
                [],
                th,
            )
        )
    return pd.DataFrame(rows)


def _evidence(checks: Sequence[Check]) -> str:
    from bufrepro.claims import _evidence as ev

    return ev(checks)


def _claim_row(
    claim_id: str,
    queue: str,
    statement: str,
    definition: str,
    sim_checks: Sequence[Check],
    model_checks: Sequence[Check],
    th: Mapping[str, float],
) -> dict[str, Any]:
    return {
        "claim": claim_id,
        "scope": queue,
        "seed_file": SEED_FILE,
        "statement": statement,
        "definition": definition,
        "verdict": verdict(sim_checks, th["holds_frac"]),
        "agree": sum(c.ok for c in sim_checks),
        "comparisons": len(sim_checks),
        "evidence": _evidence(sim_checks),
        # The paper prints no table: this side of the claim is checked on the model's curves.
        "paper_table_verdict": verdict(model_checks, th["holds_frac"]),
        "paper_table_evidence": "model: " + _evidence(model_checks),
    }


def compare_tables(
    block: Block,
    summary: pd.DataFrame,
    published: pd.DataFrame,
    model: pd.DataFrame,
    twoflow: pd.DataFrame | None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(diff of every quantitative claim, claims' verdicts), given the model and two-flow tables."""
    diff = diff_claims(published, summary, model, block["claims"])
    claims = evaluate(block, summary, model, twoflow, published)
    return diff, claims


def compare(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Study.compare: as compare_tables, computing the model here and without the two-flow runs."""
    return compare_tables(block, summary, published, model_table(block), None)


# ------------------------------------------------------------------------------ two-flow table


def twoflow_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per case: mean of each metric over seeds (tput_ratio_short_long, jain_index, ...)."""
    cols = [c for c in runs.columns if c not in ("case", "seed", "study", "buffer_frac")]
    out = runs.groupby("case", sort=True)[cols].mean(numeric_only=True).reset_index()
    out.insert(1, "seeds", runs.groupby("case", sort=True)["seed"].count().to_numpy())
    return out


# ------------------------------------------------------------------------------ figures


def draw_tables(
    summary: pd.DataFrame,
    model: pd.DataFrame | None,
    twoflow_series: Mapping[str, pd.DataFrame] | None,
) -> dict[str, Figure]:
    """Every figure: Figs. 3, 4, 7, 8 (model and simulation), 5-6 (two flows), loss, fairness."""
    from bufrepro import hstcp_plots as hp

    figs: dict[str, Figure] = {}
    for (scen, queue), name in UTIL_FIGURES.items():
        figs[name] = hp.utilisation(summary, model, scen, queue)
    for case in TWOFLOW_CASES:
        idx = 5 if case == "under" else 6
        figs[f"fig{idx}_twoflow_{case}"] = hp.window_queue((twoflow_series or {}).get(case), case)
    figs["loss_vs_buffer"] = hp.metric_grid(
        summary, model, "loss_rate", "loss_rate", "loss rate", log=True
    )
    figs["fairness_vs_buffer"] = hp.metric_grid(
        summary, None, "jain_index", None, "Jain's fairness index"
    )
    return figs


def draw(summary: pd.DataFrame, published: pd.DataFrame) -> dict[str, Figure]:
    """Study.draw: the figures without the model and the two-flow runs (the rule adds them)."""
    return draw_tables(summary, None, None)


STUDY = Study(
    name="hstcp",
    title="Barman, Smaragdakis & Matta: HighSpeed TCP utilisation vs router buffer size (003)",
    seed_files=(SEED_FILE,),
    template="hstcp.tcl.j2",
    grid_keys=KEYS,
    path_labels={"scenario": "", "queue": "", "buffer_frac": "frac"},
    unstated=UNSTATED,
    reported=REPORTED,
    report_metrics=REPORT_METRICS,
    figures=FIGURES,
    params=params,
    parse_args=parse_args,
    compare=compare,
    draw=draw,
    published="hstcp_claims.csv",
    own_rules=frozenset({"run_ns2", "parse_trace", "compare_published"}),
    check=check,
    report_tables=("model_vs_sim", "twoflow_summary"),
)
