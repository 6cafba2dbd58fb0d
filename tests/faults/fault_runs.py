"""Real tiny ns-2 runs of every study, kept on disk, for the fault corpus to corrupt."""

from __future__ import annotations

import dataclasses
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mutations import Originals

from bufrepro import backends, registry
from bufrepro.backends.awk import AWK, parser_command
from bufrepro.backends.base import RunSpec, execute
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import configuration, plan
from conftest import NS2_PREFIX, merged

READING = {"tcp": "Newreno", "bottleneck_mbps": 1.0, "rwnd_bytes": 102400, "delay_scale": 1.0}
# One tiny run per study (seconds of ns-2), and a second scenario of the same study that
# differs in a parameter the stream shows (capacity, delay or buffer).
TINY: dict[str, Any] = {
    "studies": ["dumbbell", "hstcp", "ramya", "vegas"],
    "backends": {"ns2": {"prefix": str(NS2_PREFIX)}},
    "dumbbell": {
        "seeds": [1],
        "grid": {
            "queue": ["DropTail"],
            "plr": [0.01],
            "bottleneck_mbps": [0.5, 1.0],
            "buffer": [10],
        },
        "measure": {"duration_s": 4, "warmup_s": 1},
        # The text trace: this corpus damages its event lines (test_faults_tally.py: the tally).
        "trace_level": "full",
    },
    "hstcp": {
        "seeds": [1],
        "grid": {"scenario": ["s1"], "queue": ["DropTail"], "buffer_frac": [0.1, 1.0]},
        "scenarios": {
            "s1": {
                "bottleneck_mbps": 10,
                "bottleneck_delay_ms": 50,
                "rtt_min_ms": 115.5,
                "rtt_max_ms": 124.5,
                "n_flows": 4,
            }
        },
        "tcp": {"start_jitter_s": 0.5},
        # 4 flows: the band's 0.2 access ratio would make the access links slower than R1-R2.
        "band": {"access_ratio": [1, 10]},
        "measure": {"duration_s": 2.5, "warmup_s": 1, "sample_s": 0.25},
        # The grid's two runs only (the claims' own fractions are planned beside it otherwise).
        "claims": {"plan_points": False},
    },
    "ramya": {
        "seeds": [1],
        "setups": {
            "table5": {"duration_s": 4, "warmup_s": 0, "ping": False},
            "latency": {"duration_s": 4, "warmup_s": 0, "ping": True},
        },
        "grid": [
            {
                "name": "t5",
                "setup": ["table5"],
                "tcp": ["Newreno"],
                "bottleneck_mbps": [1.0],
                "rwnd_bytes": [102400],
                "delay_scale": [1.0],
                "buffer": [12],
            },
            {
                "name": "ping",
                "setup": ["latency"],
                "tcp": ["Newreno"],
                "bottleneck_mbps": [0.5],
                "rwnd_bytes": [102400],
                "delay_scale": [1.0],
                "buffer": [10],
            },
        ],
        "readings": {
            "table1": {"setup": "table5", **READING},
            "table5": {"setup": "table5", **READING},
        },
        "trace_level": "full",
    },
    "vegas": {
        "seeds": [1],
        "setups": {
            "packet": {"duration_s": 20, "warmup_s": 0},
            "rtt": {"duration_s": 20, "warmup_s": 0},
        },
        "grid": [
            {
                "name": "packet",
                "setup": ["packet"],
                "variant": ["standard"],
                "packet_bytes": [512],
                "rtt_ms": [108],
                "buffer": [50],
                "start_s": [2.0],
            },
            {
                "name": "rtt",
                "setup": ["rtt"],
                "variant": ["standard"],
                "packet_bytes": [512],
                "rtt_ms": [60],
                "buffer": [50],
                "start_s": [2.0],
            },
        ],
        "readings": {
            "packet": {"rtt_ms": 108, "buffer": 50, "start_s": 2.0},
            "rtt": {"buffer": 50, "start_s": 2.0},
        },
        "monitor": {"max_in_flight_age_s": 5},
        # The text trace: this corpus damages its event lines (test_faults_mixed_tally.py: the
        # tally).
        "trace_level": "full",
    },
}


@dataclass(frozen=True)
class KeptRun:
    """A finished run whose stream (and side files) were kept: the corpus's originals."""

    spec: RunSpec
    other: RunSpec  # a second scenario of the same study
    other_seed: RunSpec  # the same scenario, another seed
    other_buffer: RunSpec  # the same scenario (capacity, delays), another buffer
    # The four runs' points (original, other, other seed, other buffer): their canonical
    # folders (RunPoint.run_dir), where aggregation expects them.
    points: tuple[RunPoint, ...] = ()

    @property
    def stream(self) -> Path:
        return self.spec.run_dir / self.spec.stream

    def other_stream(self) -> Path:
        return self.other.run_dir / self.other.stream


def config() -> dict[str, Any]:
    """The validated tiny config of the four studies."""
    cfg = merged(TINY)
    # The readings of ramya name cells of the tiny grid only (its default readings do not).
    cfg["ramya"]["readings"] = TINY["ramya"]["readings"]
    return configuration.validate(cfg)


def points(cfg: dict[str, Any], study: str) -> list[RunPoint]:
    """The study's two tiny runs: the original and the other scenario."""
    runs = registry.get(study).runs(cfg[study])
    assert len(runs) == 2, runs
    # ramya's original is the latency run: it pings, so its side files are all non-empty.
    return runs[::-1] if study == "ramya" else runs


# The swept key that sets each study's buffer, and the other value the "other buffer" run takes.
BUFFER_KEY: dict[str, tuple[str, Any]] = {
    "dumbbell": ("buffer", 20),
    "hstcp": ("buffer_frac", 0.5),
    "ramya": ("buffer", 20),
    "vegas": ("buffer", 30),
}


def variants(point: RunPoint, study: str) -> tuple[RunPoint, RunPoint]:
    """The original run with another seed, and with another buffer (everything else the same)."""
    key, value = BUFFER_KEY[study]
    assert key in dict(point.values), point
    values = tuple((k, value if k == key else v) for k, v in point.values)
    assert values != point.values
    return dataclasses.replace(point, seed=point.seed + 1), dataclasses.replace(
        point, values=values
    )


def kept_run(cfg: dict[str, Any], study: str, where: Path) -> KeptRun:
    """Run the study's tiny scenarios with keep_traces, under where/<study>/{a,b,seed,buffer}:
    the original, another scenario, the original with another seed and with another buffer."""
    specs = []
    first, other = points(cfg, study)
    four = (first, other, *variants(first, study))
    for label, p in zip(("a", "b", "seed", "buffer"), four, strict=True):
        spec = dataclasses.replace(plan.spec(cfg, p), run_dir=where / study / label)
        backend = backends.get(registry.get(study).own_simulator(), cfg)
        assert execute(backend, spec, keep_traces=True) == "ran"
        specs.append(spec)
    return KeptRun(*specs, points=four)


STUDIES = ("dumbbell", "hstcp", "ramya", "vegas")
_KEPT: dict[str, KeptRun] = {}


def kept_runs(where: Path) -> dict[str, KeptRun]:
    """Every study's kept runs, made once per test session (the first caller's folder)."""
    if not _KEPT:
        cfg = config()
        _KEPT.update({s: kept_run(cfg, s, where) for s in STUDIES})
    return _KEPT


def parse(spec: RunSpec, files: list[Path], program: str = "") -> subprocess.CompletedProcess[str]:
    """The study's parser (or `program`) run on files in the run folder, as execute runs it."""
    from bufrepro.backends.base import _env

    cmd = parser_command(program or spec.parser, spec.parser_args, [str(f) for f in files])
    return subprocess.run(
        cmd, cwd=spec.run_dir, capture_output=True, check=False, env=_env(AWK), timeout=120
    )


def originals(
    kept: dict[str, KeptRun], study: str, foreign: KeptRun, bottleneck: tuple[str, str]
) -> Originals:
    """What a mutation is made from: the study's kept stream, its scenario's, seed's and
    buffer's siblings, a foreign study's stream and the bottleneck's node pair."""
    run = kept[study]
    return Originals(
        own=run.stream.read_bytes(),
        other_scenario=run.other_stream().read_bytes(),
        other_study=foreign.stream.read_bytes(),
        other_seed=(run.other_seed.run_dir / run.other_seed.stream).read_bytes(),
        other_buffer=(run.other_buffer.run_dir / run.other_buffer.stream).read_bytes(),
        bottleneck=bottleneck,
    )
