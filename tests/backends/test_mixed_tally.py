"""trace_level tally for vegas: ns counts vegas.awk's metrics (MixedTally, ns2/patches/0004) and
they, and the throughput series, are byte for byte what vegas.awk computes from the text trace.

Real tiny vegas runs (both variants, small and large packets, a 2-packet bottleneck buffer that
drops, two RTTs, a measurement window starting mid-transfer so that packets straddle t0, two
seeds), each made twice through execute(): with trace_level full (the wired-cum-wireless text
trace streamed into vegas.awk: the reference) and tally; metrics.tsv and series.tsv must be
identical bytes.
"""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends, registry
from bufrepro.backends import tally
from bufrepro.backends.base import execute
from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import configuration, plan
from conftest import NS2_PREFIX, merged


def sweep(name: str, setup: str, **over: Any) -> dict[str, Any]:
    """One sweep: both variants, 512 B, 108 ms, buffer 50, transfer from 12 s."""
    out: dict[str, Any] = {
        "name": name,
        "setup": [setup],
        "variant": ["standard", "spacing"],
        "packet_bytes": [512],
        "rtt_ms": [108],
        "buffer": [50],
        "start_s": [12.0],
    }
    return out | over


TINY: dict[str, Any] = {
    "studies": ["vegas"],
    "backends": {"ns2": {"prefix": str(NS2_PREFIX)}},
    "vegas": {
        "seeds": [1, 2],
        "setups": {
            "packet": {"duration_s": 35, "warmup_s": 0},
            "rtt": {"duration_s": 34, "warmup_s": 13.5},
        },
        "grid": [
            sweep("packet", "packet", packet_bytes=[256, 1024], buffer=[2]),
            sweep("rtt", "rtt", variant=["spacing"], rtt_ms=[60, 150]),
        ],
        "readings": {
            "packet": {"rtt_ms": 108, "buffer": 2, "start_s": 12.0},
            "rtt": {"buffer": 50, "start_s": 12.0},
        },
        "monitor": {"max_in_flight_age_s": 5, "bin_s": 0.5},
        # Vegas keeps its queues short: larger targets and 2-packet queues make wired drops.
        "topology": {"other_queue_pkts": 2},
        "tcp": {"vegas_alpha": 8, "vegas_beta": 16},
    },
}


def config(level: str) -> dict[str, Any]:
    """The validated tiny vegas config at trace_level `level`."""
    cfg = merged(copy.deepcopy(TINY))
    cfg["vegas"]["trace_level"] = level
    return configuration.validate(cfg)


def run_all(level: str, where: Path) -> dict[str, Path]:
    """Every tiny vegas run at `level`; the run folders by run path."""
    cfg = config(level)
    study = registry.get("vegas")
    backend = backends.get(study.own_simulator(), cfg)
    done = {}
    for point in study.runs(cfg["vegas"]):
        spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where / level / point.run_dir)
        assert execute(backend, spec, keep_traces=False) == "ran"
        done[point.run_dir] = spec.run_dir
    return done


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, dict[str, Path]]:
    where = tmp_path_factory.mktemp("mixed_tally")
    return {level: run_all(level, where) for level in tally.LEVELS}


def test_every_metric_and_the_series_are_byte_identical_to_the_text_traces(
    both: dict[str, dict[str, Path]],
) -> None:
    full, counted = both["full"], both["tally"]
    assert sorted(full) == sorted(counted) and len(full) == 12
    dropped = 0
    for run, folder in full.items():
        reference = (folder / "metrics.tsv").read_bytes()
        assert b"acct_ok\t1" in reference and b"link_utilisation" in reference
        assert (counted[run] / "metrics.tsv").read_bytes() == reference, run
        series = (folder / "series.tsv").read_bytes()
        assert len(series.splitlines()) in (70, 41)  # 35 s or [13.5, 34] s in 0.5 s bins
        assert (counted[run] / "series.tsv").read_bytes() == series, run
        dropped += b"tcp_drops_wired\t0\n" not in reference
    assert dropped > 0  # the 2-packet buffer drops: the wired drop path is exercised


def test_the_tally_is_recorded_and_the_stream_is_small(
    both: dict[str, dict[str, Path]], tmp_path: Path
) -> None:
    for folder in both["tally"].values():
        assert '"tally": 1' in (folder / "run.json").read_text(encoding="utf-8")
        assert "MixedTally" in (folder / "sim.tcl").read_text(encoding="utf-8")
    for folder in both["full"].values():
        assert '"tally"' not in (folder / "run.json").read_text(encoding="utf-8")
        assert "MixedTally" not in (folder / "sim.tcl").read_text(encoding="utf-8")
    cfg = config("tally")
    point = registry.get("vegas").runs(cfg["vegas"])[0]
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=tmp_path / "run")
    assert execute(backends.get("ns2", cfg), spec, keep_traces=True) == "ran"
    lines = (spec.run_dir / spec.stream).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# " + spec.parser_args["fingerprint"]
    assert lines[1] == "tally\tmixed\t2" and lines[-1].startswith("# end ")
    assert len(lines) < 200


def test_an_unknown_trace_level_fails_before_any_run_naming_the_key() -> None:
    cfg = merged(copy.deepcopy(TINY))
    cfg["vegas"]["trace_level"] = "events"
    with pytest.raises(ConfigError, match=r"vegas\.trace_level.*full.*tally"):
        configuration.validate(cfg)


def test_the_tally_gets_exactly_the_parsers_text() -> None:
    cfg = config("tally")
    study = registry.get("vegas")
    ns2 = study.declarations()["ns2"]
    point = study.runs(cfg["vegas"])[0]
    params, args = ns2.params(cfg["vegas"], point), ns2.parse_args(cfg["vegas"], point)
    assert dict(params["tally_params"]) == {k: str(args[k]) for k in tally.MIXED_PARAMS}
    assert args["tally"] == 1
    assert config("full")["vegas"]["trace_level"] == "full"
    assert ns2.params(config("full")["vegas"], point)["tally_params"] == []
