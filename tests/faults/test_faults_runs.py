"""Runs that die: ns-2 killed by a signal, the parser killed while it reads the stream. Each
fails the run loudly (RunFailed naming it and the reason) and leaves no metrics.tsv."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from fault_runs import config, points

from bufrepro import backends
from bufrepro.backends.awk import AWK_DIR
from bufrepro.backends.base import RunFailed, RunSpec, execute
from bufrepro.pipeline import plan

pytestmark = pytest.mark.usefixtures("ns_available")


class KilledAt:
    """The ns2 backend whose scenario kills its own ns process (SIGKILL) at a simulated time."""

    def __init__(self, cfg: Mapping[str, Any], at_s: float) -> None:
        self.inner = backends.get("ns2", cfg)
        self.at_s = at_s

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        name, text = self.inner.scenario(spec)
        assert "\n$ns run" in text
        kill = f'\n$ns at {self.at_s} "exec kill -KILL [pid]"\n$ns run'
        return name, text.replace("\n$ns run", kill)


def spec_of(cfg: dict[str, Any], study: str, where: Path, **over: Any) -> RunSpec:
    return dataclasses.replace(plan.spec(cfg, points(cfg, study)[0]), run_dir=where, **over)


@pytest.mark.parametrize("study", ["dumbbell", "ramya", "hstcp"])
def test_ns_killed_by_a_signal_fails_the_run(study: str, tmp_path: Path) -> None:
    cfg = config()
    spec = spec_of(cfg, study, tmp_path / study)
    with pytest.raises(RunFailed) as err:
        execute(KilledAt(cfg, 1.0), spec)  # type: ignore[arg-type]
    assert str(spec.run_dir) in str(err.value) and "simulator exit code -9" in str(err.value)
    assert not (spec.run_dir / "metrics.tsv").exists()


def test_the_parser_killed_fails_the_run(tmp_path: Path) -> None:
    # The dumbbell's parser, killing itself (SIGKILL) at its 200th line while ns-2 writes.
    cfg = config()
    real = Path(plan.spec(cfg, points(cfg, "dumbbell")[0]).parser)
    killer = tmp_path / "killed.awk"
    awk = AWK_DIR / real
    killer.write_text(f'@include "{awk}"\nFNR == 200 {{ system("kill -KILL " PROCINFO["pid"]) }}\n')
    spec = spec_of(cfg, "dumbbell", tmp_path / "run", parser=str(killer))
    with pytest.raises(RunFailed) as err:
        execute(backends.get("ns2", cfg), spec)
    assert str(spec.run_dir) in str(err.value) and "parser exit code -9" in str(err.value)
    assert not (spec.run_dir / "metrics.tsv").exists()
