"""The workflow benchmark's floor counts every run the workflow makes, and only those."""

from __future__ import annotations

from pathlib import Path

import pytest

from bufrepro import registry
from bufrepro.pipeline import bench, configuration
from bufrepro.pipeline.readings import space as rspace


def test_the_floor_counts_grid_side_and_readings_runs_each_once() -> None:
    cfg = configuration.load(profile="quick")
    for name in ("dumbbell", "hstcp"):
        grid = registry.get(name).runs(cfg[name])
        alone = bench.all_specs(cfg, name, readings=False)
        every = bench.all_specs(cfg, name)
        dirs = [str(s.run_dir) for s in every]
        assert len(dirs) == len(set(dirs))  # a run shared by readings is counted once
        readings = [d for d in dirs if "/readings/runs/" in d]
        sp = rspace.load(cfg, name, rspace.files(name, "quick"))
        # fewer than planned: identical readings share their runs
        assert 0 < len(readings) <= rspace.planned_runs(cfg, sp)
        assert len(every) == len(alone) + len(readings)
        side = len(alone) - len(grid)
        # hstcp's own rules run its two-flow cases and its band; the dumbbell has none
        assert (side > 0) if name == "hstcp" else (side == 0)
        assert any("/twoflow/" in d for d in dirs) == (name == "hstcp")


def test_a_sampled_floor_scales_each_study_by_its_runs_and_gives_an_interval() -> None:
    # Study a: 10 runs, 5 timed (1 s and 3 s alternately); study b: 4 runs, all timed.
    got = bench.estimate({"a": [1.0, 3.0, 1.0, 3.0, 1.0], "b": [2.0] * 4}, {"a": 10, "b": 4})
    assert (got.runs, got.measured) == (14, 9)
    assert abs(got.seconds - (10 * 1.8 + 8.0)) < 1e-9
    # s^2 = 1.2 over 5 of 10 runs: 1.96 * sqrt(100 * 1.2 / 5 * 0.5); b, measured whole, adds 0
    assert abs(got.half - 1.96 * (100 * 1.2 / 5 * 0.5) ** 0.5) < 1e-9
    whole = bench.estimate({"b": [2.0, 4.0]}, {"b": 2})
    assert (whole.seconds, whole.half) == (6.0, 0.0)
    assert "estimated from 9 of them" in bench.floor_text(got, 2)
    assert "estimated" not in bench.floor_text(whole, 2)


@pytest.mark.usefixtures("ns_available")
def test_every_kth_run_of_each_study_is_timed_untraced(tmp_path: Path) -> None:
    """A real sampled floor of the tiny quick dumbbell grid: every 9th run, ns really run."""
    cfg = configuration.load(profile="quick")
    runs = len(bench.all_specs(cfg, "dumbbell", readings=False))
    got = bench.floor_all(cfg, ["dumbbell"], 2, tmp_path, readings=False, every=9)
    assert got.runs == runs and got.measured == len(range(4, runs, 9)) and got.seconds > 0
    timed = sorted(int(p.name[1:]) for p in tmp_path.joinpath("dumbbell").iterdir())
    assert timed == list(range(4, runs, 9))
    assert all(not (tmp_path / "dumbbell" / f"f{i}" / "out.tr").stat().st_size for i in timed)
