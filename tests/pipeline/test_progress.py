"""The sweep's progress line and the benchmark's sampling."""

from __future__ import annotations

import io
import json
import os
import subprocess
import threading
from pathlib import Path
from typing import Any

import yaml

from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import bench, progress


def test_progress_line_counts_and_estimates() -> None:
    assert progress.line(0, 200, 0.0, None) == "[progress] 0/200 runs (0%)"
    assert progress.line(5, 200, 1e6, None) == "[progress] 5/200 runs (2%)"  # no ETA: no rate
    text = progress.line(50, 200, 2.0, 75.0)
    assert text == "[progress] 50/200 runs (25%), 2.0 runs/s, ETA 75 s"
    assert "ETA 2 min" in progress.line(0, 250, 2.0, 125.0)


def _finished(run_dir: Path, cpu: float) -> Path:
    run_dir.mkdir(parents=True)
    (run_dir / "run.json").write_text(json.dumps({"cpu_s": {"simulator": cpu, "parser": 0.0}}))
    return run_dir


def test_expected_cost_by_cell_then_scope_then_all(tmp_path: Path) -> None:
    costs = progress.Costs()
    assert costs.left([tmp_path / "results/a/runs/x/seed1"]) is None  # nothing measured yet
    for seed, cpu in ((1, 10.0), (2, 30.0)):
        d = _finished(tmp_path / f"results/a/runs/slow/seed{seed}", cpu)
        costs.add(d, progress.run_cpu(d))
    costs.add(_finished(tmp_path / "results/a/runs/fast/seed1", 2.0), 2.0)
    costs.add(_finished(tmp_path / "results/b/ns3/runs/c/seed1", 100.0), 100.0)
    assert costs.expected(tmp_path / "results/a/runs/slow/seed3") == 20.0  # its cell's mean
    assert costs.expected(tmp_path / "results/a/runs/new/seed1") == 14.0  # its scope's
    assert costs.expected(tmp_path / "results/z/runs/q/seed1") == 35.5  # every finished run's
    assert progress.run_cpu(tmp_path / "missing") == 0.0


def test_eta_weighs_runs_by_their_cost_and_waits_for_a_rate() -> None:
    # 40 CPU s finished in 20 s of wall (2 CPU s a second); 100 CPU s expected to come: 50 s.
    assert progress.eta_seconds(100.0, 40.0, 4, 20.0) == 50.0
    # The same 4 runs done, but only cheap ones: an expensive remainder is not hidden by counting.
    assert progress.eta_seconds(1000.0, 40.0, 4, 20.0) == 500.0
    assert progress.eta_seconds(100.0, 40.0, 2, 20.0) is None  # too few runs yet
    assert progress.eta_seconds(100.0, 40.0, 4, 0.001) is None  # the first instant
    assert progress.eta_seconds(None, 40.0, 4, 20.0) is None


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
