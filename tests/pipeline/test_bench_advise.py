"""The advisor's benchmark on a tiny link, for real: a cold `advise` in a fresh copy, its CPU
split into ns, parsers and the rest, read back from the runs it made."""

from __future__ import annotations

import json
from pathlib import Path

from bufrepro.pipeline import bench_advise

TINY = [
    "--rate=1Mbit",
    "--rtt=20ms",
    "--warmup=1s",
    "--measure=2s",
    "--coarse=3",
    "--refine=0",
    "--seeds=2",
]


def test_a_cold_advise_is_timed_and_split_by_part(tmp_path: Path) -> None:
    cost = bench_advise.cold_advise(tmp_path / "copy", TINY, cores=2)
    assert cost.runs == 2 * 3 * 2  # DropTail and RED, 3 buffers, 2 seeds: each made now
    assert 0 < cost.ns and 0 < cost.parsers and cost.rest > 0, cost
    assert cost.ns + cost.parsers < cost.cpu <= cost.wall * 64, cost
    answer = tmp_path / "copy" / "results" / "experiments" / "bench" / "answer.txt"
    assert answer.read_text().startswith("Link: 1 Mbit/s") and len(cost.answer_sha) == 12
    text = bench_advise.report(cost, 2, (1.0, 2.0))
    assert f"{cost.runs} runs" in text and f"sha256 {cost.answer_sha}" in text


def test_run_costs_sum_each_runs_recorded_cpu(tmp_path: Path) -> None:
    for i, (sim, parse) in enumerate([(0.5, 0.25), (1.0, 0.5)]):
        run = tmp_path / f"r{i}"
        run.mkdir()
        cpu = {"simulator": sim, "parser": parse}
        (run / "run.json").write_text(json.dumps({"cpu_s": cpu}))
    assert bench_advise.run_costs(tmp_path) == (1.5, 0.75, 2)
