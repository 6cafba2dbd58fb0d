"""A scenario whose stop time is set early: ns-2 runs it, writes a whole, correctly sealed
stream that ends before t_end, and every parser refuses it (issue 42: the end of a run is
checked, never assumed, with or without an end line)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from fault_runs import STUDIES, KeptRun, config, kept_run, kept_runs, parse

from bufrepro import backends, registry
from bufrepro.backends.base import RunSpec

pytestmark = pytest.mark.usefixtures("ns_available")

FINISH = re.compile(rb'\$ns at ([0-9.]+) "finish"')


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, KeptRun]:
    """The fault corpus's full-trace runs, and dumbbell's and vegas's tally runs."""
    out = {f"text:{s}": r for s, r in kept_runs(tmp_path_factory.mktemp("text")).items()}
    cfg = config()
    where = tmp_path_factory.mktemp("tally")
    for study in ("dumbbell", "vegas"):
        cfg[study]["trace_level"] = "tally"
        out[f"tally:{study}"] = kept_run(cfg, study, where)
    return out


def stopped_early(spec: RunSpec, where: Path) -> Path:
    """Run the spec's scenario again in `where` with its finish at 60 % of its stop time."""
    tcl = (spec.run_dir / "sim.tcl").read_bytes()
    match = FINISH.search(tcl)
    assert match, "no finish line in sim.tcl"
    early = b"%.3f" % (float(match.group(1)) * 0.6)
    where.mkdir()
    (where / "sim.tcl").write_bytes(FINISH.sub(b"$ns at " + early + b' "finish"', tcl))
    cfg = config()
    backend = backends.get(registry.get(spec.owner).own_simulator(), cfg)
    cmd = backend.simulate(spec)
    proc = subprocess.run(cmd, cwd=where, capture_output=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-600:]
    done = re.search(rb"BUFREPRO_DONE ([0-9.]+)", proc.stdout)
    assert done and abs(float(done.group(1)) - float(early)) < 1e-6, proc.stdout[-300:]
    return where


@pytest.mark.parametrize("name", [*(f"text:{s}" for s in STUDIES), "tally:dumbbell", "tally:vegas"])
def test_a_scenario_stopped_early_fails_its_parser(
    runs: dict[str, KeptRun], name: str, tmp_path: Path
) -> None:
    spec = runs[name].spec
    where = stopped_early(spec, tmp_path / "early")
    stream = where / spec.stream
    assert stream.read_bytes().split(b"\n")[-2].startswith(b"# end "), "the stream is sealed"
    proc = parse(spec, [stream])
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode != 0, f"{name}: a stream stopped early passed"
    assert proc.stdout == b"", "numbers written"
    assert "before" in err and ("t_end" in err or "expected" in err or "end" in err), err[:600]
    if spec.side_files:  # ramya's side files: each reaches the end or the run fails
        files = [where / f for f in spec.side_files]
        side = parse(spec, files, spec.side_parser)
        assert side.returncode != 0, f"{name}: side files stopped early passed"
