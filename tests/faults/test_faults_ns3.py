"""The fault corpus on the ns-3 programs' streams: every kind of damaged or foreign input fails
the study's parser loudly, as on ns-2's (test_faults_streams.py).

The originals are real tiny ns-3 runs of dumbbell and hstcp (the ns3 backend), streams kept.
"""

from __future__ import annotations

import dataclasses
import subprocess

import fault_runs
import pytest
from fault_runs import BUFFER_KEY, KeptRun, parse, variants
from mutations import KINDS, Originals
from test_faults_streams import BOTTLENECK, FOREIGN_RUN, assert_fails_loudly

from bufrepro import backends, registry
from bufrepro.backends import ns3
from bufrepro.backends.base import execute
from bufrepro.kit import configs
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration, plan

STUDIES = ("dumbbell", "hstcp")
# The other study's ns-3 stream is the foreign one.
FOREIGN = {"dumbbell": "hstcp", "hstcp": "dumbbell"}


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> dict[str, KeptRun]:
    """Each study's four tiny ns-3 runs, streams kept."""
    if ns3.missing():
        pytest.fail(ns3.missing())
    subprocess.run(["bash", str(REPO_ROOT / "ns3" / "build.sh")], check=True)
    raw = fault_runs.config()
    cfg = configuration.validate(
        configs.merge(raw, {"simulators": {s: ["ns2", "ns3"] for s in STUDIES}})
    )
    where = tmp_path_factory.mktemp("ns3")
    out = {}
    for study in STUDIES:
        first, other = (
            dataclasses.replace(p, backend="ns3") for p in registry.get(study).runs(cfg[study])
        )
        specs = []
        for label, p in zip(
            ("a", "b", "seed", "buffer"), (first, other, *variants(first, study)), strict=True
        ):
            spec = dataclasses.replace(plan.spec(cfg, p), run_dir=where / study / label)
            assert execute(backends.get("ns3", cfg), spec, keep_traces=True) == "ran"
            specs.append(spec)
        out[study] = KeptRun(*specs)
    return out


def originals(kept: dict[str, KeptRun], study: str) -> Originals:
    return fault_runs.originals(kept, study, kept[FOREIGN[study]], BOTTLENECK[study])


@pytest.mark.parametrize("study", STUDIES)
def test_the_ns3_originals_parse(kept: dict[str, KeptRun], study: str) -> None:
    run = kept[study]
    assert run.spec.record["simulator"] == "ns3" and BUFFER_KEY[study]
    proc = parse(run.spec, [run.stream])
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"acct_ok\t1" in proc.stdout


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("study", STUDIES)
def test_a_damaged_or_foreign_ns3_stream_fails_loudly(
    kept: dict[str, KeptRun], study: str, kind: str
) -> None:
    run = kept[study]
    name = f"fault-{kind}.tr"
    damaged = run.spec.run_dir / name
    damaged.write_bytes(KINDS[kind](originals(kept, study)))
    try:
        assert_fails_loudly(parse(run.spec, [damaged]), name, run.spec.run_dir)
    finally:
        damaged.unlink()


@pytest.mark.parametrize("kind", sorted(FOREIGN_RUN))
@pytest.mark.parametrize("study", STUDIES)
def test_a_foreign_ns3_run_fails_at_its_header(
    kept: dict[str, KeptRun], study: str, kind: str
) -> None:
    run = kept[study]
    damaged = run.spec.run_dir / f"fault-{kind}.tr"
    damaged.write_bytes(KINDS[kind](originals(kept, study)))
    try:
        err = parse(run.spec, [damaged]).stderr.decode(errors="replace")
    finally:
        damaged.unlink()
    assert f"{damaged.name}: line 1: {FOREIGN_RUN[kind]}" in err, err[:600]
