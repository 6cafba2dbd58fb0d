"""The fault corpus on the ns-3 programs' streams: every kind of damaged or foreign input fails
the study's parser loudly, as on ns-2's (test_faults_streams.py).

The originals are real tiny ns-3 runs of dumbbell and hstcp (the ns3 backend), streams kept.
"""

from __future__ import annotations

import dataclasses
import subprocess

import binding_mutations as bm
import fault_runs
import hstcp_mutations as hm
import pytest
import tally_mutations
import test_faults_binding as binding
from fault_runs import BUFFER_KEY, KeptRun, parse, variants
from mutations import KINDS, Originals
from test_faults_streams import BOTTLENECK, FOREIGN_RUN, assert_fails_loudly

from bufrepro import backends, registry
from bufrepro.backends.base import execute
from bufrepro.backends.simulators import ns3
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


# The binding corpus (test_faults_binding.py) on the ns-3 streams: the same classes as on
# ns-2's dumbbell trace and hstcp counter stream.
BINDING = ("cut_reended", "edited", "spliced", "resealed_edit", "deleted_resealed", "rescaled")


def _binding(run: KeptRun, cls: str, study: str) -> dict[str, bm.Mutation]:
    donors = {
        "other_seed": binding._lines(run.other_seed.run_dir / run.other_seed.stream),
        "other_buffer": binding._lines(run.other_buffer.run_dir / run.other_buffer.stream),
        "other_scenario": binding._lines(run.other_stream()),
    }
    return {
        "cut_reended": bm.CUT,
        "edited": bm.generic_edits(),
        "spliced": bm.splices(donors),
        "resealed_edit": (
            hm.edits()
            if study == "hstcp"
            else {k: bm.resealed(m) for k, m in bm.wired_edits().items()}
        ),
        "deleted_resealed": hm.deletions() if study == "hstcp" else bm.deletions(),
        "rescaled": hm.rescaled() if study == "hstcp" else {},
    }[cls]


@pytest.mark.parametrize("study", STUDIES)
def test_the_ns3_end_line_is_the_reference_checksum(kept: dict[str, KeptRun], study: str) -> None:
    data = binding._lines(kept[study].stream)
    assert data[-1] == bm.end_line(data[:-1]), data[-1]


@pytest.mark.parametrize("cls", BINDING)
@pytest.mark.parametrize("study", STUDIES)
def test_every_binding_mishap_on_an_ns3_stream_fails_loudly(
    kept: dict[str, KeptRun], study: str, cls: str
) -> None:
    run = kept[study]
    kinds = _binding(run, cls, study)
    if not kinds:
        pytest.skip(f"{cls} is hstcp's counters only")
    assert len(kinds) >= 20, f"{study} {cls}: {len(kinds)} mishaps"
    original = binding._lines(run.stream)
    quiet = []
    for name, mutate in sorted(kinds.items()):
        damaged = mutate(original)
        if damaged == original or binding._unread(original, damaged):
            continue
        proc = binding._parse(run, f"text:{study}", f"fault-{cls}-{name}.tr", damaged)
        problem = binding._loud(proc, f"fault-{cls}-{name}.tr")
        if problem:
            quiet.append(problem)
    assert not quiet, f"{len(quiet)} of {len(kinds)} passed or failed quietly:\n" + "\n".join(quiet)


# The tally corpus (test_faults_tally.py) on the ns-3 dumbbell's tally stream (trace_level
# tally: the program counts in-process). Its line 2 is the program's "#@" line, so losing the
# format line is losing the line after it.
def _format_line_lost(o: Originals) -> bytes:
    return tally_mutations.edited(
        o.own, lambda b: [x for x in b if x != b"tally\twired\t2\n"], True
    )


TALLY_KINDS = {**tally_mutations.KINDS, "format_line_lost_resealed": _format_line_lost}


@pytest.fixture(scope="module")
def kept_tally(
    kept: dict[str, KeptRun], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, KeptRun]:
    """The ns-3 dumbbell's four tiny runs at trace_level tally, streams kept (the ns-3 hstcp
    run of `kept` is the foreign study's)."""
    raw = fault_runs.config()
    raw = configs.merge(raw, {"simulators": {s: ["ns2", "ns3"] for s in STUDIES}})
    raw["dumbbell"]["trace_level"] = "tally"
    cfg = configuration.validate(raw)
    where = tmp_path_factory.mktemp("ns3-tally")
    first, other = (
        dataclasses.replace(p, backend="ns3")
        for p in registry.get("dumbbell").runs(cfg["dumbbell"])
    )
    specs = []
    for label, p in zip(
        ("a", "b", "seed", "buffer"), (first, other, *variants(first, "dumbbell")), strict=True
    ):
        spec = dataclasses.replace(plan.spec(cfg, p), run_dir=where / label)
        assert spec.parser == "dumbbell/dumbbell_tally.awk"
        assert execute(backends.get("ns3", cfg), spec, keep_traces=True) == "ran"
        specs.append(spec)
    return {"dumbbell": KeptRun(*specs), "hstcp": kept["hstcp"]}


def test_the_ns3_tally_original_parses_and_is_sealed(kept_tally: dict[str, KeptRun]) -> None:
    run = kept_tally["dumbbell"]
    proc = parse(run.spec, [run.stream])
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"acct_ok\t1" in proc.stdout
    data = binding._lines(run.stream)
    assert data[-1] == bm.end_line(data[:-1]) and data[1].startswith(b"#@ ")


@pytest.mark.parametrize("kind", sorted(TALLY_KINDS))
def test_a_damaged_or_foreign_ns3_tally_stream_fails_loudly(
    kept_tally: dict[str, KeptRun], kind: str
) -> None:
    run = kept_tally["dumbbell"]
    name = f"fault-{kind}.tr"
    damaged = run.spec.run_dir / name
    o = fault_runs.originals(kept_tally, "dumbbell", kept_tally["hstcp"], BOTTLENECK["dumbbell"])
    damaged.write_bytes(TALLY_KINDS[kind](o))
    try:
        assert_fails_loudly(parse(run.spec, [damaged]), name, run.spec.run_dir)
    finally:
        damaged.unlink()
