"""The readings band (band.py): pacing x access ratio runs on the real patched ns-2, tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hstcp_tiny import side_bound, tiny

from bufrepro import backends
from bufrepro.backends import factory
from bufrepro.backends.base import RunSpec, execute
from bufrepro.kit.grid import RunPoint
from bufrepro.studies.hstcp import band, sides
from bufrepro.studies.hstcp.params import axis_ratios, flows_bdp_pkts


def spec(block: dict[str, Any], point: RunPoint, base: Path = Path()) -> RunSpec:
    """One band run's spec, made by the one factory from the band's declaration."""
    return factory.spec(side_bound(block, "band"), point, base)


def band_cfg(**over: Any) -> dict[str, Any]:
    """The tiny config with a band of s1 at 1% (one or two packets), 4 s runs."""
    cfg = tiny()
    block = cfg["hstcp"]
    block["measure"] = {**block["measure"], "duration_s": 4, "warmup_s": 2}
    block["band"] = {
        **block["band"],
        "scenario": ["s1"],
        "buffer_frac": [0.04],
        "seeds": [1],
        **over,
    }
    return cfg


def test_band_points_cover_every_reading() -> None:
    block = band_cfg(access_ratio=[0.2, 1, 10], buffer_frac=[0.01, 0.1])["hstcp"]
    pts = sides.band_points(block)
    assert len(pts) == 2 * 3 * 2
    dirs = {spec(block, p).run_dir.as_posix() for p in pts}
    assert len(dirs) == len(pts)
    assert all(d.startswith("results/hstcp/band/s1/DropTail/") for d in dirs)


def test_pacing_reaches_the_template_and_only_changes_spacing() -> None:
    block = band_cfg(pacing=[False, True], access_ratio=[10])["hstcp"]
    texts = [spec(block, p).record["params"] for p in sides.band_points(block)]
    assert [t["pacing"] for t in texts] == [0, 1]
    assert texts[0]["access_mbps"] == texts[1]["access_mbps"] == 100
    slow_block = band_cfg(access_ratio=[0.2])["hstcp"]
    slow = spec(slow_block, sides.band_points(slow_block)[0])
    assert slow.record["params"]["access_mbps"] == pytest.approx(0.2 * 10)


def test_pacing_lifts_utilisation_at_a_tiny_buffer(tmp_path: Path) -> None:
    # Real patched ns-2, 10 Mb/s, a 5-packet buffer (0.04 of 125): unpaced line-rate bursts
    # from 10x faster access links overflow it; paced senders keep the link far busier.
    cfg = band_cfg(pacing=[False, True], access_ratio=[10])
    block = cfg["hstcp"]
    backend = backends.get("ns2", cfg)
    specs = [spec(block, p, tmp_path) for p in sides.band_points(block)]
    for s in specs:
        execute(backend, s, False)
    runs = band.runs_table([s.run_dir for s in specs])
    util = dict(zip(runs["pacing"], runs["link_utilisation"], strict=True))
    assert util[True] > util[False] + 0.1, util


def test_band_table_envelope_and_axes() -> None:
    block = band_cfg(access_ratio=[1, 10], buffer_frac=[0.04])["hstcp"]
    runs = pd.DataFrame(
        {
            "scenario": ["s1"] * 4,
            "pacing": [False, False, True, True],
            "access_ratio": [1.0, 10.0, 1.0, 10.0],
            "buffer_frac": [0.04] * 4,
            "seed": [1] * 4,
            "buffer_pkts": [5] * 4,
            "link_utilisation": [0.7, 0.3, 0.9, 0.8],
            "loss_rate": [0.01] * 4,
        }
    )
    model = pd.DataFrame(
        {"scenario": ["s1"], "queue": ["DropTail"], "buffer_frac": [0.04], "utilisation": [0.6]}
    )
    out = band.band_table(block, runs, model)
    assert list(out["band_low"]) == [0.3] * 4 and list(out["band_high"]) == [0.9] * 4
    assert list(out["a_priori"]) == [False, True, False, False]
    assert list(out["model_utilisation"]) == [0.6] * 4
    flows = flows_bdp_pkts(block["scenarios"]["s1"], block["packet_bytes"])
    assert out["buffer_frac_flows_bdp"].iloc[0] == pytest.approx(5 / flows)


def test_axis_ratio_of_the_papers_scenarios() -> None:
    # s2's 6250 packets are 22% of its flows' BDP at the mean RTT (90 ms); s1's 12500 are 83%.
    from hstcp_tiny import defaults

    r = axis_ratios(defaults()["hstcp"])
    assert r["s2"] == pytest.approx(6250 / 28125)
    assert r["s1"] == pytest.approx(12500 / 15000)


def test_slow_access_links_do_not_slow_the_shared_sink_link() -> None:
    block = band_cfg(access_ratio=[0.2])["hstcp"]
    p = spec(block, sides.band_points(block)[0]).record["params"]
    assert p["access_mbps"] == pytest.approx(2.0)
    assert p["sink_mbps"] == p["bottleneck_mbps"] == 10
