"""The paper's claims as verdicts with evidence, on the simulated and on the model's curves."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.kit import samples, verdicts
from bufrepro.kit.claims import Check, evidence, rule, verdict
from bufrepro.kit.stats import wide_means
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.params import CLAIM_FRACTIONS, KEYS, SEED_FILE, axis_ratios
from bufrepro.studies.hstcp.tested import Cell, against, fall_tested, interval, tested

Curves = Mapping[tuple[str, str], Sequence[tuple[float, float]]]
# Per (scenario, queue) and buffer fraction: the runs' values of a metric (tested.Cell).
Spread = Mapping[tuple[str, str], Mapping[float, Cell]]
CheckFn = Callable[..., list[Check]]


def _cells(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per grid cell, one column per metric's mean."""
    return wide_means(summary, KEYS)


def _curve(cells: pd.DataFrame, scen: str, queue: str, col: str) -> list[tuple[float, float]]:
    """(buffer fraction, value) of one (scenario, queue) cell's column, NaNs left out."""
    g = cells[(cells["scenario"] == scen) & (cells["queue"] == queue)].sort_values("buffer_frac")
    return [
        (float(f), float(v))
        for f, v in zip(g["buffer_frac"], g[col], strict=True)
        if not math.isnan(float(v))
    ]


def _at(curve: Sequence[tuple[float, float]], frac: float) -> float:
    """A curve's value at one buffer fraction (NaN if it has none)."""
    return next((v for f, v in curve if abs(f - frac) < 1e-9), math.nan)


def untestable(where: str, frac: float) -> Check:
    """The check of a claim point no run measured: "untestable: no run at ..."."""
    point = f"{where}, buffer {frac:g} BDP"
    return Check(point, False, "", verdicts.word("claim", "untestable", point=point))


def check_util_at(frac: float, target: float, tol_key: str | None) -> CheckFn:
    """Checks: utilisation at `frac` >= target - th[tol_key] per (scenario, queue) curve; given
    the runs' `spread`, a test on the 90 % interval of the mean (at_least)."""

    def run(curves: Curves, th: Mapping[str, float], spread: Spread | None = None) -> list[Check]:
        out = []
        bound = target - (th[tol_key] if tol_key else 0.0)
        for (scen, queue), curve in sorted(curves.items()):
            u = _at(curve, frac)
            if math.isnan(u):
                out.append(untestable(f"{scen} {queue}", frac))
                continue
            cell = (spread or {}).get((scen, queue), {}).get(frac)
            if cell is not None:
                out.append(tested(f"{scen} {queue}, buffer {frac:g} BDP", u, bound, cell))
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
    curves: Mapping[tuple[str, str], Sequence[tuple[float, float]]],
    th: Mapping[str, float],
    spread: Spread | None = None,
) -> list[Check]:
    """Below 10% of the BDP utilisation falls by at least fall_min, and its slope per unit of
    buffer fraction is at least sharp_ratio times the slope above 10%."""
    out = []
    for (scen, queue), curve in sorted(curves.items()):
        below = [(f, u) for f, u in curve if f < 0.1 - 1e-9]
        u10 = _at(curve, 0.1)
        above = [(f, u) for f, u in curve if f > 0.1 + 1e-9]
        if math.isnan(u10):
            out.append(untestable(f"{scen} {queue}", 0.1))
            continue
        if not below or not above:
            continue
        f_lo, u_lo = below[0]
        f_hi, u_hi = above[-1]
        fall = u10 - u_lo
        slope_below = fall / (0.1 - f_lo)
        slope_above = (u_hi - u10) / (f_hi - 0.1)
        sharp = slope_below >= th["sharp_ratio"] * max(slope_above, 1e-12)
        ok = fall >= th["fall_min"] and sharp
        text = (
            f"utilisation {u_lo:.3f} at {f_lo:g}, {u10:.3f} at 0.1, {u_hi:.3f} at {f_hi:g}; "
            f"slope below/above 0.1: {slope_below:.3f}/{slope_above:.3f}"
        )
        cells = (spread or {}).get((scen, queue), {})
        if f_lo in cells and 0.1 in cells:
            out.append(fall_tested(f"{scen} {queue}", cells[f_lo], cells[0.1], sharp, th, text))
            continue
        out.append(Check(f"{scen} {queue}", bool(ok), text))
    return out


# Claims checked on one utilisation curve per (scenario, queue): id, statement, definition, check.
CURVE_CLAIMS: tuple[tuple[str, str, str, CheckFn], ...] = (
    (
        "util_90_at_10",
        "At 10% of the BDP, HSTCP sustains at least 90% utilisation (abstract, III.A, V).",
        "Per scenario: mean utilisation at buffer fraction 0.1 >= 0.90 - util_tol; on our runs "
        "the 90 % interval of the mean against it (holds above, fails below, else undecided).",
        check_util_at(0.1, 0.90, "util_tol"),
    ),
    (
        "util_98_at_20",
        "At 20% of the BDP, utilisation reaches about 98% (abstract, V).",
        "Per scenario: mean utilisation at buffer fraction 0.2 >= 0.98 - util_tol; on our runs "
        "the 90 % interval of the mean against it.",
        check_util_at(0.2, 0.98, "util_tol"),
    ),
    (
        "sharp_fall_below_10",
        "Below 10% of the BDP utilisation falls sharply (abstract, V).",
        "Per scenario: utilisation at 0.1 minus at the smallest fraction >= fall_min, and "
        "the slope below 0.1 >= sharp_ratio x the slope above.",
        check_sharp_fall,
    ),
)
QUEUES = ("DropTail", "RED")
# claims.csv's paper_side: this study's second column reads the paper's fixed-point model.
MODEL_SIDE = "model"
# A run planned at a claim fraction of the flows' BDP (params.claim_fractions, rounded to
# CLAIM_DIGITS) lies within this of it on the flows' axis, and is read as that fraction.
SNAP = 5e-4
# Model-simulation agreement, judged separately below and from 0.1 BDP: two groups that
# partition the fractions, so each cell counts once (a third claim over every fraction counted
# each cell twice, issue #50).
AGREE_SPLITS: tuple[tuple[str, str, Callable[[float], bool]], ...] = (
    ("model_sim_agree_below_10", "buffer fractions below 0.1", lambda f: f < 0.1 - 1e-9),
    ("model_sim_agree_from_10", "buffer fractions 0.1 and above", lambda f: f >= 0.1 - 1e-9),
)


def on_flows_axis(curve: Sequence[tuple[float, float]], ratio: float) -> list[tuple[float, float]]:
    """A curve re-expressed on the flows' BDP axis; a run planned at a claim fraction of the
    flows' BDP (within SNAP) reads as that fraction. Nothing is read between runs."""
    return sorted((_snap(f * ratio), u) for f, u in curve)


def _snap(x: float) -> float:
    """x, or the claim fraction within SNAP of it."""
    return next((c for c in CLAIM_FRACTIONS if abs(x - c) <= SNAP), x)


def _spread(
    summary: pd.DataFrame, scale: float, metric: str = "link_utilisation"
) -> dict[tuple[str, str], dict[float, Any]]:
    """Per (scenario, queue) and fraction (x scale): the metric's (n, mean, sd)."""
    part = summary[summary["metric"] == metric]
    out: dict[tuple[str, str], dict[float, Any]] = {}
    for r in part.to_dict("records"):
        key = (str(r["scenario"]), str(r["queue"]))
        cell = (int(r["n"]), float(r["mean"]), float(r["sd"]))
        out.setdefault(key, {})[float(r["buffer_frac"]) * scale] = cell
    return out


def _seeds(
    runs: pd.DataFrame, metric: str = "link_utilisation"
) -> dict[tuple[str, str], dict[float, Any]]:
    """Per (scenario, queue) and fraction: the metric's values by seed (runs.csv)."""
    out: dict[tuple[str, str], dict[float, Any]] = {}
    if metric not in runs:
        return out
    for (scen, queue, frac), cell in samples.of_runs(runs, KEYS, metric).items():
        out.setdefault((str(scen), str(queue)), {})[float(frac)] = cell
    return out


def points(curves: Curves) -> dict[tuple[str, str], dict[float, Any]]:
    """The model's curves as points (kit.samples.Sample.published): judged by the same tests as
    the runs, each value an interval of no width."""
    return {k: {f: samples.Sample.published(u) for f, u in c} for k, c in curves.items()}


def by_queue(curves: Mapping[tuple[str, str], Any], queue: str) -> dict[tuple[str, str], Any]:
    """The curves of one queue discipline."""
    return {k: v for k, v in curves.items() if k[1] == queue}


def check_agree(
    sim: Curves,
    mod: Curves,
    queue: str,
    th: Mapping[str, float],
    keep: Callable[[float], bool] = lambda f: True,
    spread: Spread | None = None,
) -> list[Check]:
    """Per scenario and grid fraction of `queue` that `keep` accepts: |simulated - model
    utilisation| <= agree_tol; given the runs' `spread`, a test (kit.verdicts.flat_outcome)."""
    checks = []
    for key in sorted(by_queue(sim, queue)):
        for f, u in sim[key]:
            m = _at(mod[key], f)
            if math.isnan(m) or not keep(f):
                continue
            where, text = f"{key[0]} {queue}, buffer {f:g}", f"simulation {u:.4f}, model {m:.4f}"
            cell = (spread or {}).get(key, {}).get(f)
            if cell is None:
                checks.append(Check(where, abs(u - m) <= th["agree_tol"], text))
                continue
            # the model is one number: the 90 % interval of the runs' mean minus it, inside
            # +-agree_tol (the smallest disagreement of interest) holds
            iv = against(cell, m)
            outcome = verdicts.flat_outcome(iv, th["agree_tol"])
            told = verdicts.evidence(
                "utilisation, model -> simulation:", m, u, iv, th["agree_tol"], outcome
            )
            checks.append(Check(where, outcome == verdicts.word("claim", "holds"), told, outcome))
    return checks


def check_twoflow(twoflow: pd.DataFrame | None) -> list[Check]:
    """Two flows: the short/long-RTT throughput ratio is closer to 1 over- than under-buffered."""
    if twoflow is None or twoflow.empty:
        return []
    r = {
        str(c): float(v)
        for c, v in zip(twoflow["case"], twoflow["tput_ratio_short_long"], strict=True)
    }
    if not {"under", "over"} <= set(r):
        return []
    u, o = r["under"], r["over"]
    return [
        Check(
            "two flows (Figs. 5-6), short/long-RTT throughput ratio",
            abs(o - 1) < abs(u - 1),
            f"under-buffered {u:.3f}, over-buffered {o:.3f}",
        )
    ]


def check_fairness(
    sim: Curves,
    cells: pd.DataFrame,
    twoflow: pd.DataFrame | None,
    queue: str,
    th: Mapping[str, float] | None = None,
    jain: Spread | None = None,
) -> list[Check]:
    """Jain's index higher at the largest than at the smallest buffer; two flows (DropTail).
    Given the runs' `jain` values, a test (kit.verdicts): the 90 % interval of the rise,
    paired by seed, against jain_tol, its smallest effect of interest."""
    checks = []
    for key in sorted(by_queue(sim, queue)):
        j = _curve(cells, *key, "jain_index")
        if len(j) >= 2:
            (f0, j0), (f1, j1) = j[0], j[-1]
            where, text = (
                f"{key[0]} {queue}, Jain index",
                f"{j0:.4f} at {f0:g} BDP -> {j1:.4f} at {f1:g} BDP",
            )
            got = (jain or {}).get(key, {})
            if th is not None and f0 in got and f1 in got:
                iv = interval(got[f0], got[f1])
                outcome = verdicts.claim_outcome(iv, th["jain_tol"], 1)
                told = verdicts.evidence(f"{text}:", j0, j1, iv, th["jain_tol"], outcome)
                checks.append(
                    Check(where, outcome == verdicts.word("claim", "holds"), told, outcome)
                )
                continue
            checks.append(Check(where, j1 > j0, text))
    if queue == "DropTail":
        checks += check_twoflow(twoflow)
    return checks


def evaluate(
    block: Block,
    summary: pd.DataFrame,
    model: pd.DataFrame,
    twoflow: pd.DataFrame | None,
    runs: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Every claim's verdict and evidence, on the simulation and on the model. Given `runs`,
    the tests read each cell's values by seed (paired where two cells are compared), else the
    summary's (n, mean, sd) (Welch)."""
    th = dict(block["claims"])
    cells = _cells(summary)
    keys = sorted(
        {(str(s), str(q)) for s, q in zip(cells["scenario"], cells["queue"], strict=True)}
    )
    mcells = model[model["on_grid"]] if "on_grid" in model else model
    sim = {k: _curve(cells, *k, "link_utilisation") for k in keys}
    mod = {k: _curve(mcells.rename(columns={"utilisation": "u"}), *k, "u") for k in keys}
    rows = []
    ratio = axis_ratios(block)
    sim_f = {k: on_flows_axis(c, ratio[k[0]]) for k, c in sim.items()}
    mod_f = {k: on_flows_axis(c, ratio[k[0]]) for k, c in mod.items()}
    spread = _seeds(runs) if runs is not None else _spread(summary, 1.0)
    spread_f = {k: {_snap(f * ratio[k[0]]): v for f, v in c.items()} for k, c in spread.items()}
    for claim_id, statement, definition, fn in CURVE_CLAIMS:
        for queue in QUEUES:
            s_checks = fn(by_queue(sim, queue), th, spread)
            m_checks = fn(by_queue(mod, queue), th, points(mod))
            rows.append(_claim_row(claim_id, queue, statement, definition, s_checks, m_checks, th))
        # Every BDP claim on the second axis too: the buffer as a fraction of the flows' BDP.
        for queue in QUEUES:
            s_checks = fn(by_queue(sim_f, queue), th, spread_f)
            m_checks = fn(by_queue(mod_f, queue), th, points(mod_f))
            rows.append(
                _claim_row(
                    f"{claim_id}_flows_bdp",
                    queue,
                    statement,
                    definition.replace("buffer fraction", "fraction of the flows' BDP")
                    + " Axis: buffer / (C x mean RTT), not of the R1-R2 BDP; read only at "
                    "runs (the claim's fractions are planned on this axis too), never between.",
                    s_checks,
                    m_checks,
                    th,
                )
            )
    for claim_id, where, keep in AGREE_SPLITS:
        for queue in QUEUES:
            checks = check_agree(sim, mod, queue, th, keep, spread)
            rows.append(
                _claim_row(
                    claim_id,
                    queue,
                    "Model and simulation agree (III.A: 'quite close'; IV.A: 'close agreement').",
                    f"Per scenario, at {where} of the R1-R2 BDP: |simulated - model "
                    "utilisation| <= agree_tol.",
                    checks,
                    checks,
                    th,
                )
            )
    jain = _seeds(runs, "jain_index") if runs is not None else _spread(summary, 1.0, "jain_index")
    for queue in QUEUES:
        rows.append(
            _claim_row(
                "buffer_reduces_rtt_unfairness",
                queue,
                "A larger buffer reduces the RTT unfairness between competing flows "
                "(III.A, Figs. 5-6).",
                "Per scenario: Jain's index over the flows' throughput is higher at the largest "
                "than at the smallest buffer; two flows: the short/long-RTT throughput ratio is "
                "closer to 1 over-buffered than under-buffered (DropTail).",
                check_fairness(sim, cells, twoflow, queue, th, jain),
                [],
                th,
            )
        )
    return pd.DataFrame(rows)


def _claim_row(
    claim_id: str,
    queue: str,
    statement: str,
    definition: str,
    sim_checks: Sequence[Check],
    model_checks: Sequence[Check],
    th: Mapping[str, float],
) -> dict[str, Any]:
    """One row of claims.csv: the verdict on the simulation, and on the model's curves."""
    return {
        "claim": claim_id,
        "scope": queue,
        "seed_file": SEED_FILE,
        "statement": statement,
        "definition": definition,
        "verdict": verdict(sim_checks, th["holds_frac"]),
        "agree": sum(c.ok for c in sim_checks),
        "comparisons": len(sim_checks),
        "evidence": evidence(sim_checks),
        # The paper prints no table: this side of the claim is checked on the model's curves
        # (the paper's fixed-point model), labelled "model", not the paper's table.
        "paper_table_verdict": verdict(model_checks, th["holds_frac"]),
        "paper_table_evidence": "model: " + evidence(model_checks),
        "paper_side": MODEL_SIDE,
        "rule": rule(sim_checks),
        "paper_table_rule": rule(model_checks),
    }
