"""The judged window of a real hstcp run: awk's MSER-5 is kit.transient's, on the run's own
series, and every windowed metric starts where the transient ends."""

from __future__ import annotations

import copy
from itertools import pairwise
from pathlib import Path

import pytest
from hstcp_tiny import TINY_HSTCP, point
from test_hstcp_runs import simulate

from bufrepro.kit import transient
from bufrepro.pipeline import configuration
from bufrepro.studies.hstcp.params import STREAM
from conftest import merged

pytestmark = pytest.mark.usefixtures("ns_available")

# hstcp_tiny's scenario (10 Mb/s) for 12 s, one cell and seed, sampled every 0.1 s: 120
# intervals, 24 batches of MSER-5.
LONGER = copy.deepcopy(TINY_HSTCP)
LONGER["hstcp"].update(
    seeds=[1],
    grid={"scenario": ["s1"], "queue": ["DropTail"], "buffer_frac": [0.1]},
    measure={"duration_s": 12, "warmup_s": 1, "sample_s": 0.1},
)
LONGER["hstcp"].pop("twoflow")


def samples(stream: Path) -> list[tuple[float, int]]:
    """(time, departed bytes) of each Q sample, one per distinct time (the last of equal ones);
    the 32-bit byte counter unwrapped."""
    out: list[tuple[float, int]] = []
    total, last = 0, None
    for line in stream.read_text().splitlines():
        if not line.startswith("Q "):
            continue
        f = line.split()
        raw = int(f[6])
        total += 0 if last is None else (raw - last) % 2**32
        last = raw
        t = float(f[1])
        if out and abs(out[-1][0] - t) < 1e-9:
            out[-1] = (t, total)
        else:
            out.append((t, total))
    return out


@pytest.mark.parametrize(("duration", "settled"), [(12, 0), (40, 1)])
def test_window_is_kit_mser5_on_the_runs_own_series(
    tmp_path: Path, duration: float, settled: int
) -> None:
    """12 s: still settling in its first half (flagged); 40 s: settled, the window moved."""
    raw = merged(LONGER)
    raw["hstcp"]["measure"]["duration_s"] = duration
    cfg = configuration.validate(raw)
    block = cfg["hstcp"]
    m = simulate(cfg, point(block, "DropTail", 0.1, 1), tmp_path, keep=True)
    series = samples(tmp_path / STREAM)
    bps = 10e6
    times = [t for t, _ in series[:-1]]
    util = [(b1 - b0) * 8 / (bps * (t1 - t0)) for (t0, b0), (t1, b1) in pairwise(series)]
    start, found = transient.window_start(times, util, block["measure"]["warmup_s"])
    assert len(util) == duration * 10
    assert m["steady_state"] == int(found.settled) == settled
    assert m["window_start_s"] > block["measure"]["warmup_s"]
    assert m["transient_end_s"] == pytest.approx(times[found.index], abs=1e-6)
    assert m["window_start_s"] == pytest.approx(start, abs=1e-6)
    # The utilisation is the window's: departed bytes from the window's start to the end.
    end_t, end_b = series[-1]
    begin = next(b for t, b in series if abs(t - start) < 1e-9)
    expected = (end_b - begin) * 8 / (bps * (end_t - start))
    assert m["link_utilisation"] == pytest.approx(min(expected, 1.0), abs=2e-6)


def test_a_run_too_short_to_judge_is_flagged(tmp_path: Path) -> None:
    """Fewer than four batches: nothing truncated, steady_state 0, the warm-up kept."""
    short = merged(LONGER)
    short["hstcp"]["measure"] = {"duration_s": 2.5, "warmup_s": 1, "sample_s": 0.25}
    cfg = configuration.validate(short)
    m = simulate(cfg, point(cfg["hstcp"], "DropTail", 0.1, 1), tmp_path)
    assert m["steady_state"] == 0
    assert m["window_start_s"] == 1.0
