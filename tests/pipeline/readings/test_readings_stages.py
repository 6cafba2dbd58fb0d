"""The readings stages end to end on a tiny space with the real ns-2, and the verdict's forms."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from bufrepro.pipeline import configuration
from bufrepro.pipeline.readings import calibration, confirmation, sensitivity, space, verdict

TINY_SPACE: dict[str, Any] = {
    "parameters": {
        "tcp.max_rwnd_pkts": {"values": [3, 1000], "reason": "window-limited or not"},
        "cbr.interval_s": {"range": [0.2, 0.8], "scale": "log", "reason": "CBR share"},
    },
    "cells": {"queue": ["DropTail", "RED"], "plr": [0.05], "bottleneck_mbps": [0.5], "buffer": [5]},
    "seeds": [1, 2],
    "overrides": {
        "measure.duration_s": 3,
        "measure.warmup_s": 1,
    },
    "metrics": ["tcp_delay_ms_mean", "tcp_throughput_kbps"],
    "train": {"seed_file": ["000"]},
    "sensitivity": {"trajectories": 2, "levels": 2, "seeds": [1]},
    "calibration": {"readings": 2},
    "confirmation": {"readings": 1, "seeds": [1, 2, 3]},
    "verdict": {"max_error_pct": 25},
}


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory, ns_available: None) -> dict[str, Any]:
    """The three stages and the verdict run once in a scratch folder; the calibration twice."""
    work = tmp_path_factory.mktemp("readings")
    cfg = configuration.load(profile="")
    sp = space.validate(cfg, "dumbbell", {"dumbbell": TINY_SPACE})
    here = Path.cwd()
    try:
        import os

        os.chdir(work)
        out = Path("results/dumbbell")
        sens = sensitivity.run(
            cfg,
            sp,
            2,
            out / "tables/sensitivity.csv",
            out / "figures/sensitivity.png",
            out / "readings/sensitivity.json",
        )
        paths = (out / "tables/calibration.csv", out / "tables/diff_calibrated.csv")
        cal = calibration.run(cfg, sp, 2, *paths, out / "readings/calibration.json")
        first = [p.read_bytes() for p in paths]
        first_state = json.loads((out / "readings/calibration.json").read_text())
        calibration.run(cfg, sp, 2, *paths, out / "readings/calibration.json")
        second_state = json.loads((out / "readings/calibration.json").read_text())
        conf = confirmation.run(
            cfg,
            sp,
            2,
            paths[0],
            out / "tables/confirmation.csv",
            out / "tables/diff_confirmed.csv",
            out / "readings/confirmation.json",
        )
        conf_state = json.loads((out / "readings/confirmation.json").read_text())
        made = verdict.write(
            sp,
            out / "tables/sensitivity.csv",
            out / "readings/sensitivity.json",
            out / "readings/calibration.json",
            out / "readings/confirmation.json",
            out / "tables/verdict.json",
            "`bash scripts/reproduce.sh`",
        )
        return {
            "work": work,
            "sens": sens,
            "cal": cal,
            "first": first,
            "again": [p.read_bytes() for p in paths],
            "first_state": first_state,
            "second_state": second_state,
            "conf": conf,
            "conf_state": conf_state,
            "verdict": made,
        }
    finally:
        os.chdir(here)


def test_sensitivity_screens_each_metric_and_the_distance(staged: dict[str, Any]) -> None:
    sens: pd.DataFrame = staged["sens"]
    assert list(sens.columns) == ["parameter", "metric", "index", "value", "confidence"]
    mu = sens[sens["index"] == "mu_star"]
    assert set(mu["metric"]) == {"tcp_delay_ms_mean", "tcp_throughput_kbps", "distance"}
    assert set(mu["parameter"]) == {"tcp.max_rwnd_pkts", "cbr.interval_s"}
    # A window of 3 packets against 1000 moves the delay at a 5-packet buffer.
    delay = mu[(mu["metric"] == "tcp_delay_ms_mean") & (mu["parameter"] == "tcp.max_rwnd_pkts")]
    assert float(delay["value"].iloc[0]) > 0
    assert (staged["work"] / "results/dumbbell/figures/sensitivity.png").stat().st_size > 1000


def test_calibration_holds_a_priori_and_each_designed_reading(staged: dict[str, Any]) -> None:
    cal: pd.DataFrame = staged["cal"]
    assert cal["reading"].tolist() == ["a-priori", "lhs000", "lhs001"]
    assert cal.loc[0, "tcp.max_rwnd_pkts"] == 1000  # the study config's own value
    assert cal["runs"].tolist() == [4, 4, 4]  # 2 cells x 2 seeds
    assert all(math.isfinite(v) for v in cal["train_distance"])
    assert all(math.isfinite(v) for v in cal["validation_distance"])
    best = pd.read_csv(staged["work"] / "results/dumbbell/tables/diff_calibrated.csv")
    assert best["reading"].nunique() == 1
    assert best["reading"].iloc[0] == cal.sort_values("train_distance")["reading"].iloc[0]


def test_runs_are_kept_per_reading_and_skipped_when_current(staged: dict[str, Any]) -> None:
    folders = list((staged["work"] / "results/dumbbell/readings/runs").glob("*/*/*/*/*/seed*"))
    assert folders and all((f / "run.json").is_file() for f in folders)
    assert staged["first_state"]["ran"] > 0
    assert staged["second_state"]["ran"] == 0
    # The runs' recorded cost stays with them when they are reused.
    assert staged["first_state"]["run_wall_s"] > 0
    assert staged["second_state"]["run_wall_s"] == staged["first_state"]["run_wall_s"]
    assert staged["second_state"]["runs"] == staged["first_state"]["runs"]
    assert staged["again"] == staged["first"]  # same config and seeds: byte-identical tables


def test_confirmation_reruns_the_a_priori_and_the_best_reading_at_its_seeds(
    staged: dict[str, Any],
) -> None:
    conf: pd.DataFrame = staged["conf"]
    cal: pd.DataFrame = staged["cal"]
    best = cal[cal["reading"] != "a-priori"].sort_values("train_distance")["reading"].iloc[0]
    assert conf["reading"].tolist() == ["a-priori", best]
    assert conf["runs"].tolist() == [6, 6]  # 2 cells x 3 seeds
    state = staged["conf_state"]
    assert state["confirmed"] == 2 and state["seeds"] == [1, 2, 3]
    # Seeds 1 and 2 of both readings ran in calibration: only seed 3 is new (4 of 12 runs).
    assert state["runs"] == 12 and state["ran"] == 4
    assert state["best"] == conf.sort_values(["train_distance", "reading"])["reading"].iloc[0]
    shown = pd.read_csv(staged["work"] / "results/dumbbell/tables/diff_confirmed.csv")
    assert shown["reading"].unique().tolist() == [state["best"]]


def test_the_verdict_comes_from_the_confirmed_runs(staged: dict[str, Any]) -> None:
    made, state = staged["verdict"], staged["conf_state"]
    # A tiny space: 3 readings searched, 3 seeds confirmed; labelled, not a finding, with the
    # command that judges it.
    assert not made["judged"]
    assert (
        made["verdict"].startswith("not judged: n < 5 seeds, 3 readings (< 10); ")
        and "`bash scripts/reproduce.sh` judges it" in made["verdict"]
    )
    assert "2 readings confirmed at 3 seeds" in made["verdict"]
    assert "tcp.max_rwnd_pkts" not in made["verdict"]
    # Each metric judged on its own, with a bootstrap interval over the 3 seeds and the rows.
    judged = made["judged_metrics"]
    assert {j["metric"] for j in judged} <= set(TINY_SPACE["metrics"]) and judged
    assert all(j["seeds"] == 3 and j["low"] <= j["high"] for j in judged)
    assert made["outcome"] in ("reproduces", "fails", "spans")
    assert made["reading"]["id"] == state["best"]
    assert made["validation_distance"] == state["validation_distance"]
    assert made["confirmed"] == 2 and made["seeds"] == 3
    assert set(made["top_parameters"]) == {"tcp_delay_ms_mean", "tcp_throughput_kbps", "distance"}
    assert made["runs"] > made["confirmation_runs"] == 12
    assert made["wall_s"] > 0 and made["run_wall_s"] > 0


def _space(parameters: dict[str, Any] | None = None) -> space.Space:
    raw = {"verdict": {"max_error_pct": 25}, "select": [], "parameters": parameters or {}}
    return space.Space("dumbbell", raw)


def _judged(metric: str, error: float, low: float, high: float, outcome: str) -> dict[str, Any]:
    """One metric's judgement as the confirmation's state holds it (errors in percent here)."""
    return {
        "metric": metric,
        "error": math.log1p(error / 100),
        "low": math.log1p(low / 100),
        "high": math.log1p(high / 100),
        "threshold": math.log1p(0.25),
        "rows": 6,
        "seeds": 5,
        "outcome": outcome,
    }


PRIOR = {"tcp.max_rwnd_pkts": 1000, "tcp.syn": True, "red.q_weight": 0.002, "tcp.mss_bytes": 1460}
WITHIN = [
    _judged("tcp_delay_ms_mean", 10, 5, 15, "within"),
    _judged("tcp_throughput_kbps", 4, 2, 8, "within"),
]
STATE = {
    "best": "lhs003",
    "validation_distance": math.log(1.1),
    "values": {**PRIOR, "tcp.max_rwnd_pkts": 5, "tcp.syn": False, "red.q_weight": 0.0123456},
    "a_priori_values": PRIOR,
    "confirmed": 4,
    "seeds": [1, 2, 3, 4, 5],
    "validation_values": 12,
    "judged": {"lhs003": WITHIN},
}
CAL = {"readings": 41, "best_validation_worst": math.log(1.08), "best_validation_reading": "lhs007"}
ORDER = ["red.q_weight", "tcp.max_rwnd_pkts", "tcp.mss_bytes", "tcp.syn"]
READING = "the a-priori reading with RED q_weight 0.0123, receive window 5 packets, SYN packet off"
LINES = (
    "TCP delay 10 % [5 %, 15 %] (threshold 25 %, 6 values); "
    "TCP throughput 4 % [2 %, 8 %] (threshold 25 %, 6 values)"
)


def test_the_verdict_line_gives_each_metric_its_interval_and_outcome() -> None:
    keys = "lhs003 (red.q_weight=0.0123456, tcp.max_rwnd_pkts=5, tcp.syn=False)"
    assert verdict.line(_space(), STATE, ORDER) == (
        f"reproduces under reading {keys} (tcp_delay_ms_mean=10 % [5 %, 15 %] <= 25 %: within, "
        "tcp_throughput_kbps=4 % [2 %, 8 %] <= 25 %: within)"
    )


def test_reproduces_needs_every_metric_within_its_threshold() -> None:
    confirmed = "4 readings confirmed at 5 seeds"
    assert verdict.words(_space(), CAL, STATE, ORDER) == (
        f"reproduces under {READING}: every metric's validation median error is within its "
        f"threshold ({LINES}; {confirmed})"
    )
    # One metric 95 % off and one perfect is no longer "reproduces" on their mean.
    off = [_judged("tcp_delay_ms_mean", 95, 80, 110, "beyond"), WITHIN[1]]
    state = {**STATE, "judged": {"lhs003": off}}
    assert not verdict.reproduces(_space(), state)
    text = verdict.words(_space(), CAL, state, ORDER)
    assert text.startswith(
        f"none of the 41 readings tried reproduces it; the best by training is {READING} "
        "(largest per-metric validation median error 95 %), the best on validation 8 % (lhs007)"
    )


def test_an_interval_that_spans_its_threshold_is_not_judged() -> None:
    spans = [_judged("tcp_delay_ms_mean", 20, 10, 40, "spans"), WITHIN[1]]
    text = verdict.words(_space(), CAL, {**STATE, "judged": {"lhs003": spans}}, ORDER)
    assert text.startswith("not judged: the interval of TCP delay spans its threshold; ")


def test_too_few_seeds_or_readings_is_not_judged_and_values_are_no_longer_counted() -> None:
    for seeds, readings, why in (([1, 2], 41, "n < 5 seeds"), ([1, 2, 3, 4, 5], 4, "4 readings")):
        few = {**STATE, "seeds": seeds, "validation_values": 3}
        text = verdict.words(_space(), {**CAL, "readings": readings}, few, ORDER, "`x`")
        assert text.startswith(f"not judged: {why}"), text
        assert "`x` judges it; the best by training is" in text
    assert not verdict.shortfalls(_space(), CAL, {**STATE, "validation_values": 3})


def test_the_verdict_names_unidentifiable_and_fitted_choices() -> None:
    sp = _space({"compare.delay_definition": {"values": ["auto", "rtt"], "reason": "r"}})
    state = {**STATE, "unidentifiable": ["red.q_weight"]}
    text = verdict.words(sp, CAL, state, ORDER)
    assert "; not identifiable from this split, held at the a-priori value: RED q_weight" in text
    assert "delay definition chose by fit to the training rows which metric is compared" in text


def test_the_verdict_names_at_most_four_values_and_counts_the_rest() -> None:
    prior = {f"k{i}": i for i in range(7)}
    state = {**STATE, "a_priori_values": prior, "values": {k: v + 1 for k, v in prior.items()}}
    order = ["k6", "k5", "k4", "k3", "k2", "k1", "k0"]
    assert verdict.apart(state, order) == order
    assert verdict.named("dumbbell", state, order) == (
        "the a-priori reading with k6 = 7, k5 = 6, k4 = 5, k3 = 4; "
        "3 more values differ, listed in the report"
    )
    assert verdict.named("dumbbell", {**state, "best": "a-priori"}, order) == (
        "the a-priori reading"
    )


def test_top_parameters_rank_by_mu_star() -> None:
    table = pd.DataFrame(
        {
            "parameter": ["a", "b", "c", "d", "a"],
            "metric": ["m", "m", "m", "m", "m"],
            "index": ["mu_star", "mu_star", "mu_star", "mu_star", "sigma"],
            "value": [0.1, 0.4, 0.3, 0.2, 9.0],
            "confidence": [0.0] * 5,
        }
    )
    assert verdict.top_parameters(table) == {"m": ["b", "c", "d"]}
