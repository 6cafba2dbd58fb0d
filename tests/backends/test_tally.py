"""trace_level tally: ns counts the wired metrics (WiredTally, ns2/patches/0003) and they are
byte for byte the metrics wired.awk computes from the text trace of the same run.

Real tiny runs of dumbbell (DropTail and RED, with and without link loss, small and large
buffers) and ramya (a table-5 run and a ping run), each made twice through execute(): with
trace_level full (Debian's ns, the text trace streamed into wired.awk: the reference) and
tally (the patched ns); their metrics.tsv must be identical bytes.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends, registry
from bufrepro.backends import tally
from bufrepro.backends.awk import PARSER_ENV, parser_command
from bufrepro.backends.base import execute
from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import configuration, plan
from conftest import NS2_PREFIX, merged

pytestmark = pytest.mark.usefixtures("ns_available")

LATENCY = {"tcp": ["Newreno"], "rwnd_bytes": [102400], "delay_scale": [1.0]}
TINY: dict[str, Any] = {
    "studies": ["dumbbell", "ramya"],
    "backends": {"ns2": {"prefix": str(NS2_PREFIX)}},
    "dumbbell": {
        "seeds": [1, 2],
        "grid": {
            "queue": ["DropTail", "RED"],
            "plr": [0.0, 0.05],
            "bottleneck_mbps": [0.5],
            "buffer": [3, 50],
        },
        "measure": {"duration_s": 4, "warmup_s": 1},
    },
    "ramya": {
        "seeds": [1],
        "setups": {
            "table5": {"duration_s": 4, "warmup_s": 0.5, "ping": False},
            "latency": {"duration_s": 4, "warmup_s": 0, "ping": True},
        },
        "grid": [
            {"name": "t5", "setup": ["table5"], "bottleneck_mbps": [1.0], "buffer": [1, 12]}
            | LATENCY,
            {"name": "ping", "setup": ["latency"], "bottleneck_mbps": [0.5], "buffer": [10]}
            | LATENCY,
        ],
        "readings": {
            name: {"setup": "table5", "tcp": "Newreno", "bottleneck_mbps": 1.0}
            | {"rwnd_bytes": 102400, "delay_scale": 1.0}
            for name in ("table1", "table5")
        },
    },
}


def config(level: str) -> dict[str, Any]:
    """The validated tiny config with both studies at trace_level `level`."""
    cfg = merged(copy.deepcopy(TINY))
    cfg["ramya"]["readings"] = TINY["ramya"]["readings"]
    for study in ("dumbbell", "ramya"):
        cfg[study]["trace_level"] = level
    return configuration.validate(cfg)


def run_all(level: str, where: Path, keep: bool = False) -> dict[str, Path]:
    """Every tiny run at `level`; the run folders by run path."""
    cfg = config(level)
    done = {}
    for study in ("dumbbell", "ramya"):
        backend = backends.get(registry.get(study).own_simulator(), cfg)
        for point in registry.get(study).runs(cfg[study]):
            spec = plan.spec(cfg, point)
            spec = dataclasses.replace(spec, run_dir=where / level / point.run_dir)
            assert execute(backend, spec, keep_traces=keep) == "ran"
            done[point.run_dir] = spec.run_dir
    return done


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, dict[str, Path]]:
    where = tmp_path_factory.mktemp("tally")
    return {level: run_all(level, where) for level in tally.LEVELS}


def test_every_metric_is_byte_identical_to_the_text_traces(
    both: dict[str, dict[str, Path]],
) -> None:
    full, counted = both["full"], both["tally"]
    assert sorted(full) == sorted(counted) and len(full) == 16 + 3
    for run, folder in full.items():
        reference = (folder / "metrics.tsv").read_bytes()
        assert b"acct_ok\t1" in reference and b"link_utilisation" in reference
        assert (counted[run] / "metrics.tsv").read_bytes() == reference, run


def test_the_tally_runs_on_the_patched_ns_and_is_recorded(
    both: dict[str, dict[str, Path]], patched_ns: Path
) -> None:
    for folder in both["tally"].values():
        meta = (folder / "run.json").read_text(encoding="utf-8")
        assert f'"simulator_binary": "{patched_ns}"' in meta
        assert '"tally": 1' in meta
        assert "_tally.awk" in meta  # the study's tally program, not its text-trace program
        assert "WiredTally" in (folder / "sim.tcl").read_text(encoding="utf-8")
    for folder in both["full"].values():
        assert '"tally"' not in (folder / "run.json").read_text(encoding="utf-8")
        assert "WiredTally" not in (folder / "sim.tcl").read_text(encoding="utf-8")


def test_the_kept_tally_stream_is_small_and_starts_with_the_header(
    tmp_path: Path, patched_ns: Path
) -> None:
    cfg = config("tally")
    point = registry.get("dumbbell").runs(cfg["dumbbell"])[0]
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=tmp_path / "run")
    assert execute(backends.get("ns2", cfg), spec, keep_traces=True) == "ran"
    lines = (spec.run_dir / spec.stream).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# " + spec.parser_args["fingerprint"]
    assert lines[1] == "tally\twired\t2" and lines[-1].startswith("# end ")
    assert len(lines) < 100


@pytest.mark.parametrize("study", ["dumbbell", "ramya"])
def test_an_unknown_trace_level_fails_before_any_run_naming_the_key(study: str) -> None:
    cfg = merged(copy.deepcopy(TINY))
    cfg["ramya"]["readings"] = TINY["ramya"]["readings"]
    cfg[study]["trace_level"] = "events"
    with pytest.raises(ConfigError, match=rf"{study}\.trace_level.*full.*tally"):
        configuration.validate(cfg)


def test_template_vars_refuse_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="allowed: full, tally"):
        tally.template_vars("none", {})
    assert tally.template_vars("full", {"t0": 1})["tally_params"] == []
    assert tally.template_vars("tally", {"t0": 1.5, "x": 2})["tally_params"] == [("t0", "1.5")]


def test_the_tally_build_option_runs_the_patched_ns_for_a_parsed_stream(patched_ns: Path) -> None:
    # Both trace levels write a stream whose end line StreamSum writes (the patched build);
    # only an untraced scenario runs on Debian's ns.
    cfg = config("full")
    ns2 = backends.get("ns2", cfg)
    assert ns2.requires({"build": "tally"}) == ["results/ns2/ns-patched.json"]
    assert ns2.binary({"build": "tally"}) == ns2.binary({})
    point = registry.get("dumbbell").runs(cfg["dumbbell"])[0]
    spec = dataclasses.replace(plan.spec(cfg, point), options={"build": "tally"})
    assert ns2.simulate(spec)[0] == str(patched_ns)
    untraced = dataclasses.replace(spec, record={**spec.record, "params": {"trace_level": "none"}})
    assert ns2.simulate(untraced)[0] == ns2.binary({})
    counted = plan.spec(config("tally"), point)
    assert ns2.simulate(counted)[0] == str(patched_ns)
    with pytest.raises(ValueError, match="allowed: stock, patched, tally"):
        ns2.binary({"build": "debug"})


@pytest.mark.parametrize("study", ["dumbbell", "ramya"])
def test_the_tally_program_prints_what_the_study_program_prints_and_refuses_a_text_trace(
    tmp_path: Path, patched_ns: Path, study: str
) -> None:
    """<study>_tally.awk (what the pipeline runs on a tally stream) and <study>.awk -v tally=1
    read a kept tally stream to the same bytes; the tally program fails a text trace."""
    made = {}
    for level in tally.LEVELS:
        cfg = config(level)
        point = registry.get(study).runs(cfg[study])[0]
        spec = dataclasses.replace(plan.spec(cfg, point), run_dir=tmp_path / level)
        assert execute(backends.get("ns2", cfg), spec, keep_traces=True) == "ran"
        made[level] = spec
    counted = made["tally"]
    assert (
        counted.parser
        == registry.get(study).declarations()["ns2"].tally_parser
        == f"{study}/{study}_tally.awk"
    )
    env = {**os.environ, **PARSER_ENV}
    outputs = [
        subprocess.run(
            parser_command(program, counted.parser_args, [counted.stream]),
            cwd=counted.run_dir,
            capture_output=True,
            check=False,
            env=env,
        )
        for program in (counted.parser, registry.get(study).declarations()["ns2"].parser)
    ]
    assert [o.returncode for o in outputs] == [0, 0], outputs[0].stderr
    assert outputs[0].stdout == outputs[1].stdout and b"acct_ok\t1" in outputs[0].stdout
    text = made["full"]
    refused = subprocess.run(
        parser_command(counted.parser, text.parser_args, [text.stream]),
        cwd=text.run_dir,
        capture_output=True,
        check=False,
        env=env,
    )
    assert refused.returncode == 3 and refused.stdout == b""
    assert b"not a WiredTally stream" in refused.stderr
