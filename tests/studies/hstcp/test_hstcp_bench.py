"""The benchmark runs a point at every trace level, as the pipeline runs it, and reports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hstcp_tiny import point, tiny

from bufrepro.studies.hstcp import bench

pytestmark = pytest.mark.usefixtures("ns_available")


@pytest.mark.skipif(shutil.which("/usr/bin/time") is None, reason="GNU time is not installed")
def test_bench_measures_every_level(tmp_path: Path) -> None:
    cfg = tiny()
    block = cfg["hstcp"]
    results = bench.bench(
        cfg, block, point(block, "DropTail", 0.1, 1), ["counters", "events"], 1, tmp_path
    )
    assert [len(results[k]) for k in ("none", "counters", "events")] == [1, 1, 1]
    counters, events = results["counters"][0], results["events"][0]
    assert counters["link_utilisation"] == events["link_utilisation"]
    assert events["stream_lines"] > 10 * counters["stream_lines"]
    assert all(m["max_rss_mb"] > 1 and m["cpu_s"] > 0 for m in results["none"])
    assert results["keep_mb"] > 0
    text = bench.report(results, block["measure"]["duration_s"], (0.0, 0.0, 0.0))
    assert "events" in text and "keep_traces" in text


def test_default_block_takes_overrides() -> None:
    block = bench.default_block({"grid": {"scenario": ["s2"]}, "measure": {"duration_s": 12}})
    assert block["grid"]["scenario"] == ["s2"] and block["measure"]["duration_s"] == 12
    with pytest.raises(ValueError, match=r"hstcp\.grid\.scenario"):
        bench.default_block({"grid": {"scenario": ["s9"]}})
