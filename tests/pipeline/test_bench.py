"""The workflow benchmark's floor counts every run the workflow makes, and only those."""

from __future__ import annotations

import json
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


def test_the_ratio_estimator_scales_the_recorded_walls_by_the_sampled_ratio() -> None:
    # Study a: 6 runs whose recorded walls sum to 30 s; 3 sampled, floors exactly half their
    # recorded walls, so the estimate is exact: 15 s, and no residual, so no interval.
    exact = bench.ratio_estimate(
        {"a": [1.0, 2.0, 3.0]}, {"a": [2.0, 4.0, 6.0]}, {"a": 30.0}, {"a": 6}
    )
    assert (exact.seconds, exact.half, exact.method) == (15.0, 0.0, "ratio")
    assert "ratio to the runs' recorded walls" in bench.floor_text(exact, 2)
    # Floors 1, 3 against recorded 2, 2: R = 1, residuals -1, +1, s^2 = 2 over 2 of 4 runs.
    got = bench.ratio_estimate({"a": [1.0, 3.0]}, {"a": [2.0, 2.0]}, {"a": 10.0}, {"a": 4})
    assert abs(got.seconds - 10.0) < 1e-12
    assert abs(got.half - 1.96 * (16 * 2.0 / 2 * 0.5) ** 0.5) < 1e-12


@pytest.mark.usefixtures("ns_available")
def test_a_sampled_floor_uses_the_recorded_walls_only_when_every_run_has_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real ns on every 9th quick dumbbell run; the reproduction's run.json files are written
    here by hand (a recorded wall of 1 s each), in the folder the benchmark runs in."""
    cfg = configuration.load(profile="quick")
    monkeypatch.chdir(tmp_path)
    specs = bench.all_specs(cfg, "dumbbell", readings=False)
    for spec in specs:
        spec.run_dir.mkdir(parents=True)
        record = {"wall_s": 1.0, "cpu_s": {"simulator": 0.5, "parser": 0.25}}
        (spec.run_dir / "run.json").write_text(json.dumps(record))
    got = bench.floor_all(cfg, ["dumbbell"], 2, tmp_path / "f1", readings=False, every=9)
    floors = [p for p in (tmp_path / "f1" / "dumbbell").iterdir()]
    assert got.method == "ratio" and got.measured == len(floors) and got.seconds > 0
    # the runs' own CPU, summed from every run.json, beside the study's floor
    assert got.runs_cpu == {"dumbbell": 0.75 * len(specs)}
    assert got.studies["dumbbell"] == got.seconds
    (line,) = bench.runs_cpu_text(got)
    assert line.startswith("dumbbell: floor") and f"{0.75 * len(specs):.1f} CPU s" in line
    (specs[0].run_dir / "run.json").unlink()
    again = bench.floor_all(cfg, ["dumbbell"], 2, tmp_path / "f2", readings=False, every=9)
    assert again.method == "mean" and again.measured == got.measured
    assert again.runs_cpu == {} and bench.runs_cpu_text(again) == []
