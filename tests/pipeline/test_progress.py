"""The sweep's progress line and the benchmark's sampling."""

from __future__ import annotations

import io
import os
import subprocess
import threading
from pathlib import Path
from typing import Any

import yaml

from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import bench, progress


def test_progress_line_counts_and_estimates() -> None:
    assert progress.line(0, 200, 0.0, 0) == "[progress] 0/200 runs (0%)"
    text = progress.line(50, 200, 2.0, 10)
    assert text.startswith("[progress] 50/200 runs (25%), 2.0 runs/s, ETA")
    assert "ETA 75 s" in text
    assert "ETA 2 min" in progress.line(0, 250, 2.0, -1)


def test_watch_follows_a_process_and_counts_metrics(
    tiny_cfg: dict[str, Any], tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.yaml"
    # An earlier run's config that no longer validates (a renamed key): not this run's, ignored.
    config.write_text(yaml.safe_dump({"studies": ["dumbbell"], "dumbbell": {"renamed": 1}}))
    runs = progress.planned(tiny_cfg)
    for d in runs[:3]:
        d.mkdir(parents=True)
        (d / "metrics.tsv").write_text("acct_ok\t1\n")

    def rewrite() -> None:
        """The workflow writes this run's config (a later mtime)."""
        config.write_text(yaml.safe_dump(tiny_cfg))
        later = config.stat().st_mtime + 5
        os.utime(config, (later, later))

    class Out(io.StringIO):
        """The watcher's output; once its first line is out, two more runs get their metrics."""

        def write(self, text: str) -> int:
            if not self.getvalue():
                for d in runs[3:5]:
                    d.mkdir(parents=True)
                    (d / "metrics.tsv").write_text("acct_ok\t1\n")
            return super().write(text)

    proc = subprocess.Popen(["sleep", "1.5"])
    timer = threading.Timer(0.2, rewrite)
    timer.start()
    out = Out()
    assert progress.watch(config, proc.pid, interval=0.1, out=out) == 5
    timer.join()
    proc.wait()
    # a line when this run's config appears, and the last one when the workflow ends
    first, *_, last = out.getvalue().splitlines()
    assert first.startswith(f"[progress] 3/{len(runs)} runs")
    assert last.startswith(f"[progress] 5/{len(runs)} runs")


def test_watch_ignores_the_previous_runs_config(
    tiny_cfg: dict[str, Any], tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(tiny_cfg))
    d = progress.planned(tiny_cfg)[0]
    d.mkdir(parents=True)
    (d / "metrics.tsv").write_text("acct_ok\t1\n")
    proc = subprocess.Popen(["sleep", "0.3"])
    out = io.StringIO()
    assert progress.watch(config, proc.pid, interval=0.1, out=out) == 0
    proc.wait()
    assert out.getvalue() == ""


def test_benchmark_samples_spread_over_the_grid() -> None:
    points = [RunPoint("s", (("b", i),), 1) for i in range(10)]
    assert [p.get("b") for p in bench.sample(points, 3)] == [0, 3, 6]
    assert bench.sample(points, 20) == points


def test_every_study_runs_untraced_for_the_benchmark_floor(
    tmp_path: Path, ns_available: None, patched_ns: Path
) -> None:
    import dataclasses

    from bufrepro import backends, registry
    from bufrepro.pipeline import configuration, plan

    cfg = configuration.load(profile="quick")
    ns2 = {**cfg["backends"]["ns2"], "prefix": str(patched_ns.parent.parent)}
    cfg = {**cfg, "backends": {**cfg["backends"], "ns2": ns2}}
    for name in registry.names():
        study = registry.get(name)
        point = study.runs(cfg[name])[0]
        spec = bench.untraced(plan.spec(cfg, point), plan.bound(cfg, name).declaration.untraced)
        spec = dataclasses.replace(spec, run_dir=tmp_path / name)
        wall, cpu = bench.floor_run(backends.get(study.own_simulator(), cfg), spec)
        assert wall > 0 and cpu > 0
        assert "trace_level" in spec.params and spec.params["trace_level"] == "none"
