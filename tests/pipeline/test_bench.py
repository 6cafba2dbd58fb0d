"""The workflow benchmark's floor counts every run the workflow makes, and only those."""

from __future__ import annotations

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
