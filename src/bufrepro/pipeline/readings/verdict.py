"""The one-line verdict of a study's readings, from its confirmed runs (in words and by keys)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import distance as kdistance
from bufrepro.kit import fit as kfit
from bufrepro.kit import verdicts
from bufrepro.pipeline import evidence, labels
from bufrepro.pipeline.readings import calibration
from bufrepro.pipeline.readings.sensitivity import DISTANCE
from bufrepro.pipeline.readings.space import Space


def top_parameters(sensitivity: pd.DataFrame, n: int = 3) -> dict[str, list[str]]:
    """Per metric (and the distance), the n parameters of largest Morris mu_star."""
    mu = sensitivity[sensitivity["index"] == "mu_star"]
    out = {}
    for metric, rows in mu.groupby("metric", sort=False):
        ranked = rows.sort_values(["value", "parameter"], ascending=[False, True], kind="mergesort")
        out[str(metric)] = [str(p) for p in ranked["parameter"].head(n)]
    return out


# At most this many parameters name the best reading in the verdict (the full list: the report).
NAMED = 4


def ranking(sensitivity: pd.DataFrame) -> list[str]:
    """Every parameter, the one that moves the distance most (Morris mu_star) first."""
    return top_parameters(sensitivity, n=len(sensitivity)).get(DISTANCE, [])


def _differs(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return not math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return bool(a != b)


def apart(state: Mapping[str, Any], order: list[str]) -> list[str]:
    """The keys where the best reading differs from the a-priori one, those that move the
    distance most first (keys the screening did not rank last, in declared order)."""
    prior = state["a_priori_values"]
    keys = [k for k, v in state["values"].items() if _differs(v, prior.get(k))]
    rank = {k: i for i, k in enumerate(order)}
    return sorted(keys, key=lambda k: (rank.get(k, len(rank)), list(state["values"]).index(k)))


def named(study: str, state: Mapping[str, Any], order: list[str]) -> str:
    """The best reading in words: the a-priori one, or it with the (at most NAMED) values that
    set it apart and move the result most, and how many more differ."""
    if state["best"] == calibration.A_PRIORI:
        return "the a-priori reading"
    keys = apart(state, order)
    shown = ", ".join(labels.setting(study, k, state["values"][k]) for k in keys[:NAMED])
    more = len(keys) - NAMED
    tail = f"; {more} more values differ, listed in the report" if more > 0 else ""
    return f"the a-priori reading with {shown}{tail}"


def named_keys(state: Mapping[str, Any], order: list[str]) -> str:
    """The best reading by its id and the keys that set it apart (at most NAMED)."""
    keys = apart(state, order)[:NAMED]
    shown = ", ".join(f"{k}={state['values'][k]}" for k in keys)
    return f"{state['best']}" + (f" ({shown})" if shown else "")


def _w(key: str, **values: Any) -> str:
    """One of the readings verdict's texts (kit/verdicts.yaml, readings), filled."""
    return " ".join(verdicts.word("readings", key, **values).split())


def pct(log_error: float) -> str:
    """A log error as a percent (100 (e^x - 1)), 'n/a' without one; +inf is a censored zero."""
    if math.isnan(log_error):
        return "n/a"
    if math.isinf(log_error):
        return _w("censored")
    return _w("percent", value=kdistance.percent(log_error))


def judged(state: Mapping[str, Any], reading: str = "") -> list[kfit.Judged]:
    """A confirmed reading's per-metric judgements (the best by training by default)."""
    return [kfit.Judged(**j) for j in state.get("judged", {}).get(reading or state["best"], [])]


def error_text(state: Mapping[str, Any]) -> str:
    """The best confirmed reading's headline figure: its largest per-metric validation median
    error, in percent ('n/a' without one)."""
    return pct(kfit.worst(judged(state)))


def reproduces(space: Space, state: Mapping[str, Any]) -> bool:
    """Whether every metric's validation median error lies within its threshold, the whole
    bootstrap interval of it included."""
    return kfit.overall(judged(state)) == "reproduces"


def metric_lines(study: str, state: Mapping[str, Any]) -> str:
    """Each metric's error, interval and threshold, in words."""
    if not judged(state):
        return _w("no_values")
    return "; ".join(
        _w(
            "metric",
            label=labels.metric(study, j.metric),
            error=pct(j.error),
            low=pct(j.low),
            high=pct(j.high),
            threshold=pct(j.threshold),
            rows=j.rows,
            s="" if j.rows == 1 else "s",
        )
        for j in judged(state)
    )


def line(space: Space, state: Mapping[str, Any], order: list[str]) -> str:
    """The verdict by its keys (reading id, the keys that set it apart) and outcome."""
    parts = ", ".join(
        f"{j.metric}={pct(j.error)} [{pct(j.low)}, {pct(j.high)}] <= {pct(j.threshold)}: "
        f"{j.outcome}"
        for j in judged(state)
    )
    return f"{kfit.overall(judged(state))} under reading {named_keys(state, order)} ({parts})"


def shortfalls(space: Space, cal: Mapping[str, Any], state: Mapping[str, Any]) -> list[str]:
    """What the verdict rests on too little of: the confirmed runs' seeds and the readings the
    calibration searched (the space's size); the validation values are judged by the width of
    each metric's interval instead of a count."""
    return evidence.shortfalls(len(state["seeds"]), int(cal["readings"]))


def notes(space: Space, state: Mapping[str, Any]) -> str:
    """What the verdict must own to: the parameters not identifiable from the split, and the
    parameters that choose by fit what is compared (compare.* keys)."""
    study, out = space.study, ""
    if state.get("unidentifiable"):
        names = ", ".join(labels.parameter(study, k) for k in state["unidentifiable"])
        out += _w("unidentifiable", parameters=names)
    chosen = [p.key for p in space.parameters if p.key.startswith("compare.")]
    if chosen:
        out += _w("fitted_choice", parameters=", ".join(labels.parameter(study, k) for k in chosen))
    return out


def words(
    space: Space,
    cal: Mapping[str, Any],
    state: Mapping[str, Any],
    order: list[str],
    command: str = "",
) -> str:
    """The verdict in words, from the confirmed runs: 'reproduces under R', 'none of the N
    readings tried reproduces it; ...', or 'not judged: ...' when the space is too small or a
    metric's interval spans its threshold, with the command that judges it where one does."""
    seeds = len(state["seeds"])
    values = {
        "reading": named(space.study, state, order),
        "metrics": metric_lines(space.study, state),
        "confirmed": _w(
            "confirmed", confirmed=state["confirmed"], seeds=seeds, s="" if seeds == 1 else "s"
        ),
        "error": error_text(state),
        "tried": cal["readings"],
        "best": _w(
            "best",
            error=pct(float(cal.get("best_validation_worst", math.nan))),
            reading=cal.get("best_validation_reading", ""),
        ),
    }
    outcome = kfit.overall(judged(state))
    if short := shortfalls(space, cal, state):
        judge = _w("judge", command=command) if command else ""
        text = _w("short", not_judged=evidence.not_judged(short), judge=judge, **values)
    elif outcome == "none":
        text = _w("none", **values)
    elif outcome == "spans":
        spanning = ", ".join(
            labels.metric(space.study, j.metric) for j in judged(state) if j.outcome == "spans"
        )
        text = _w("spans", spanning=spanning, **values)
    else:
        text = _w(outcome, **values)
    return text + notes(space, state)


def in_percent(judged: Mapping[str, Any]) -> dict[str, Any]:
    """A metric's judgement with its error, bounds and threshold also in percent (3 decimals)."""
    extra = {
        f"{k}_pct": round(kdistance.percent(float(judged[k])), 3)
        for k in ("error", "low", "high", "threshold")
    }
    return {**judged, **extra}


def write(
    space: Space,
    sensitivity: Path,
    sens_state: Path,
    cal_state: Path,
    conf_state: Path,
    out: Path,
    command: str = "",
) -> dict[str, Any]:
    """verdict.json from the sensitivity table and the three stages' records; the verdict and
    its reading are the confirmation's."""
    table = pd.read_csv(sensitivity)
    sens = json.loads(sens_state.read_text(encoding="utf-8"))
    cal = json.loads(cal_state.read_text(encoding="utf-8"))
    conf = json.loads(conf_state.read_text(encoding="utf-8"))
    top = top_parameters(table)
    order = ranking(table)
    verdict = {
        "verdict": words(space, cal, conf, order, command),
        "verdict_keys": line(space, conf, order),
        "judged": not shortfalls(space, cal, conf),
        "seeds": len(conf["seeds"]),
        "readings": cal["readings"],
        "confirmed": conf["confirmed"],
        "validation_values": conf["validation_values"],
        "reading": {
            "id": conf["best"],
            "values": conf["values"],
            "apart": apart(conf, order),
            "named": named(space.study, conf, order),
        },
        "train_distance": conf["train_distance"],
        "validation_distance": conf["validation_distance"],
        "validation_error_pct": round(kdistance.percent(conf["validation_distance"]), 3),
        "outcome": kfit.overall(judged(conf)),
        "judged_metrics": [in_percent(j) for j in conf.get("judged", {}).get(conf["best"], [])],
        "headline": "largest per-metric validation median error (percent)",
        "headline_pct": round(kdistance.percent(kfit.worst(judged(conf))), 3),
        "best_validation_reading": cal.get("best_validation_reading", ""),
        "best_validation_worst_pct": round(
            kdistance.percent(float(cal.get("best_validation_worst", math.nan))), 3
        ),
        "unidentifiable": conf.get("unidentifiable", []),
        "thresholds_pct": {
            m: round(kdistance.percent(r.threshold), 3) for m, r in space.rules.items()
        },
        "a_priori_train_distance": conf["a_priori_train_distance"],
        "a_priori_validation_distance": conf["a_priori_validation_distance"],
        "calibration_best": cal["best"],
        "threshold_pct": space["verdict"]["max_error_pct"],
        "split": dict(space["train"]),
        "top_parameters": top,
        "in_ci_a_priori": cal["in_ci_a_priori"],
        "in_ci_calibrated": cal["in_ci_calibrated"],
        "in_ci_confirmed": conf["in_ci_confirmed"],
        "in_ci_a_priori_confirmed": conf["in_ci_a_priori"],
        "values_compared": cal["values_compared"],
        "per_metric": cal["per_metric"],
        "runs": sens["runs"] + cal["runs"] + conf["runs"],
        "runs_made": sens["ran"] + cal["ran"] + conf["ran"],
        "confirmation_runs": conf["runs"],
        # This invocation's elapsed time (runs already current cost nothing), and the runs' own
        # simulate-and-parse times summed (serial, whenever they were made).
        "wall_s": round(sens["wall_s"] + cal["wall_s"] + conf["wall_s"], 3),
        "run_wall_s": round(sens["run_wall_s"] + cal["run_wall_s"] + conf["run_wall_s"], 3),
        "train": dict(space["train"]),
        "overrides": dict(space["overrides"]),
        "fitted": True,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(verdict, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return verdict
