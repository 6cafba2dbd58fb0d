"""The readings stages of ramya, vegas and hstcp on tiny spaces with the real ns-2."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from bufrepro import registry
from bufrepro.kit import configs
from bufrepro.pipeline import compare, configuration
from bufrepro.pipeline.readings import calibration, confirmation, runs, sensitivity, space

pytestmark = pytest.mark.usefixtures("ns_available")

# Each study's quick-profile space narrowed to one parameter, a few cells and short runs.
TINY: dict[str, dict[str, Any]] = {
    # Table 5's bottleneck, a table-level value the diff reads (readings.table5.*).
    "ramya": {
        "select": ["readings.table5.bottleneck_mbps"],
        # Buffers 1 and 10 train (the quick split), 100 validates (Table 1).
        "cells": {"setup": ["table1", "table5"], "buffer": [1, 10, 100]},
        "overrides": {"setups.table1.duration_s": 4, "setups.table5.duration_s": 4},
    },
    # Where the packet setup's transfer starts (readings.packet.start_s).
    "vegas": {
        "select": ["readings.packet.start_s"],
        "parameters": {
            "readings.packet.start_s": {"values": [1.0, 4.0], "reason": "tiny test"},
        },
        "cells": {
            "setup": ["packet", "rtt"],
            "variant": ["standard", "spacing"],
            "packet_bytes": [512],
            "rtt_ms": [120],
        },
        "overrides": {"setups.packet.duration_s": 20, "setups.rtt.duration_s": 20},
    },
    # Pacing, the lead; at 0.5 BDP DropTail's and RED's loss claims both have a cell
    # (validation), at 0.05 DropTail's (training: the quick split).
    "hstcp": {
        "select": ["tcp.pacing"],
        "cells": {"scenario": ["s1"], "queue": ["DropTail", "RED"], "buffer_frac": [0.05, 0.5]},
        "overrides": {"measure.duration_s": 3, "measure.warmup_s": 1, "tcp.start_jitter_s": 0.5},
    },
}
COMMON = {
    "seeds": [1],
    "sensitivity": {"trajectories": 2, "levels": 2},
    "calibration": {"readings": 1},
    "max_runs": 0,
}


def _space(cfg: dict[str, Any], study: str) -> space.Space:
    merged: dict[str, Any] = {}
    for path in space.files(study, "quick"):
        merged = configs.merge(merged, configs.read_yaml(path))
    merged = configs.merge(merged, {study: {**COMMON, **TINY[study]}})
    return space.validate(cfg, study, merged)


@pytest.fixture(scope="module", params=sorted(TINY))
def staged(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Both stages of one study in a scratch folder."""
    study = str(request.param)
    cfg = configuration.load(profile="quick")
    sp = _space(cfg, study)
    work = tmp_path_factory.mktemp(f"readings-{study}")
    here = Path.cwd()
    try:
        os.chdir(work)
        out = Path(f"results/{study}")
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
        calibration.run(cfg, sp, 2, *paths, out / "readings/calibration.json")
        again = [p.read_bytes() for p in paths]
        prior = runs.make(cfg, sp, calibration.A_PRIORI, calibration.a_priori_values(cfg, sp))
        paper = compare.published(study)
        _, reading_diff = runs.evaluate(cfg, prior, paper)
        # The study's own compare of the same runs under its configured block (the a-priori
        # reproduction's grid and readings): the rows it diffs against these cells.
        whole, diff_alone = _configured_diff(cfg, study, prior, paper)
        judged_diff, per_seed = confirmation.evaluated(cfg, sp, prior, paper)
        return {
            "judged_diff": judged_diff,
            "per_seed": per_seed,
            "judged": confirmation.judge(sp, judged_diff, per_seed),
            "study": study,
            "space": sp,
            "sens": sens,
            "cal": cal,
            "reading_diff": reading_diff,
            "configured_diff": whole,
            "diff_alone": diff_alone,
            "first": first,
            "again": again,
        }
    finally:
        os.chdir(here)


def _configured_diff(
    cfg: dict[str, Any], study: str, prior: runs.Reading, paper: dict[str, pd.DataFrame]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    from bufrepro.kit import tables

    spec = registry.get(study)
    block = {**cfg[study], **{k: v for k, v in prior.block.items() if k != "grid"}}
    dirs = [s.run_dir for s in runs.specs(cfg, prior)]
    run_table, summary, _ = tables.study_tables(
        study, dirs, spec.grid_keys, spec.reported, spec.own_simulator()
    )
    made = {"runs": tables.stable_runs(run_table), "summary": summary, **paper}
    diff = spec.compare(block, made)["diff"]
    return diff[diff["has_counterpart"].astype(bool)].reset_index(drop=True), spec.diff(block, made)


def test_the_readings_diff_alone_is_compares_diff(staged: dict[str, Any]) -> None:
    """Each reading is scored on Study.diff(), which skips the claims and notes compare() makes."""
    alone: pd.DataFrame = staged["diff_alone"]
    counterpart = alone[alone["has_counterpart"].astype(bool)].reset_index(drop=True)
    pd.testing.assert_frame_equal(counterpart, staged["configured_diff"])


def test_each_reading_is_compared_on_both_sides_of_the_split(staged: dict[str, Any]) -> None:
    cal: pd.DataFrame = staged["cal"]
    assert cal["reading"].tolist() == ["a-priori", "lhs000"]
    assert all(math.isfinite(v) for v in cal["train_distance"])
    assert all(math.isfinite(v) for v in cal["validation_distance"])
    assert (cal["runs"] > 0).all()


def test_the_same_space_gives_byte_identical_tables(staged: dict[str, Any]) -> None:
    assert staged["again"] == staged["first"]


def test_the_distance_uses_the_a_priori_diffs_published_rows(staged: dict[str, Any]) -> None:
    # Narrowing the grid to a reading's runs keeps every published row the study's own diff
    # compares on those runs, with the same values on both sides.
    ours = staged["reading_diff"]
    theirs = staged["configured_diff"]
    key = ["metric", "published", "ours_mean"]
    assert len(ours) > 0
    assert ours[key].sort_values(key).to_numpy().tolist() == (
        theirs[key].sort_values(key).to_numpy().tolist()
    )


def test_the_screening_names_the_parameter_and_every_metric(staged: dict[str, Any]) -> None:
    mu = staged["sens"][staged["sens"]["index"] == "mu_star"]
    assert set(mu["metric"]) == {*staged["space"]["metrics"], sensitivity.DISTANCE}
    assert set(mu["parameter"]) == set(TINY[staged["study"]]["select"])
    assert mu["value"].map(math.isfinite).all()


# The metric each tiny space's parameter must move (Morris mu* of its cell-averaged log(1 + x)):
# the value reaches the runs, not only the config. Measured: 0.3, 0.036 and 0.050.
MOVES = {
    "ramya": ("tcp_throughput_kbps", 0.1),
    "vegas": ("tcp_delay_ms_mean", 0.01),
    "hstcp": ("link_utilisation", 0.01),
}


def test_the_parameter_reaches_the_runs(staged: dict[str, Any]) -> None:
    metric, least = MOVES[staged["study"]]
    mu = staged["sens"][staged["sens"]["index"] == "mu_star"].set_index("metric")["value"]
    assert mu[metric] > least


def test_each_distinct_row_has_its_per_seed_means_and_each_metric_is_judged(
    staged: dict[str, Any],
) -> None:
    # The study's own diff on one seed's runs gives each row's per-seed mean (what the verdict's
    # bootstrap redraws); at one seed it is the mean itself.
    diff, per_seed = staged["judged_diff"], staged["per_seed"]
    assert per_seed is not None and per_seed.shape == (len(diff), 1)
    np.testing.assert_allclose(per_seed[:, 0], diff["ours_mean"].to_numpy(dtype=float))
    judged = staged["judged"]
    assert judged and {j["metric"] for j in judged} <= set(staged["space"]["metrics"])
    assert all(j["seeds"] == 1 and j["rows"] >= 1 for j in judged)
