"""The fault corpus on the streams: every kind of damaged or foreign input fails each parser
loudly (non-zero exit, the file, a line number and the rule on stderr) and writes no number.

The originals are real tiny ns-2 runs of each study, made once per session with their streams
kept; every kind of mutations.KINDS is applied to each and parsed as execute() parses it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import fault_runs
import pytest
from fault_runs import STUDIES, KeptRun, kept_runs, parse
from mutations import KINDS, Originals

pytestmark = pytest.mark.usefixtures("ns_available")

# The stream of another study fed to each parser.
FOREIGN = {"dumbbell": "ramya", "hstcp": "dumbbell", "ramya": "dumbbell", "vegas": "dumbbell"}
BOTTLENECK = {"dumbbell": ("4", "5"), "hstcp": ("0", "1"), "ramya": ("1", "2"), "vegas": ("1", "2")}


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, KeptRun]:
    """Each study's two tiny runs, streams kept (vegas needs the patched ns-2)."""
    return kept_runs(tmp_path_factory.mktemp("originals"))


def originals(kept: dict[str, KeptRun], study: str) -> Originals:
    return fault_runs.originals(kept, study, kept[FOREIGN[study]], BOTTLENECK[study])


def assert_fails_loudly(proc: object, name: str, run_dir: Path) -> None:
    """Non-zero exit; the file, a line number and a reason on stderr; nothing on stdout."""
    rc, out, err = proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")  # type: ignore[attr-defined]
    assert rc != 0, f"exit 0 on {name}: {out[:300]!r}"
    assert out == b"", f"numbers written on {name}: {out[:300]!r}"
    assert name in err and "line " in err, err[:600]
    assert not (run_dir / "series.tsv").exists(), "vegas wrote its series"


@pytest.mark.parametrize("study", STUDIES)
def test_the_originals_parse(kept: dict[str, KeptRun], study: str) -> None:
    """The unmutated stream passes: the corpus tests the checks, not a broken fixture."""
    run = kept[study]
    proc = parse(run.spec, [run.stream])
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"acct_ok\t1" in proc.stdout


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("study", STUDIES)
def test_a_damaged_or_foreign_stream_fails_loudly(
    kept: dict[str, KeptRun], study: str, kind: str
) -> None:
    run = kept[study]
    name = f"fault-{kind}.tr"
    damaged = run.spec.run_dir / name
    damaged.write_bytes(KINDS[kind](originals(kept, study)))
    (run.spec.run_dir / "series.tsv").unlink(missing_ok=True)
    try:
        assert_fails_loudly(parse(run.spec, [damaged]), name, run.spec.run_dir)
    finally:
        damaged.unlink()


# What stderr says of each foreign header (after "line 1: ").
FOREIGN_RUN = {
    "same_scenario_other_seed": "stream of another run: seed 2, expected 1",
    "same_scenario_other_buffer": "stream of another run: run ",
    "header_missing": "no bufrepro header",
    "header_of_another_study": "stream of another study: ",
    "header_of_another_seed": "stream of another run: seed 2, expected 1",
}


@pytest.mark.parametrize("kind", sorted(FOREIGN_RUN))
@pytest.mark.parametrize("study", STUDIES)
def test_a_foreign_run_fails_at_its_header(kept: dict[str, KeptRun], study: str, kind: str) -> None:
    """The header's failure names the file, line 1 and the field that differs."""
    run = kept[study]
    damaged = run.spec.run_dir / f"fault-{kind}.tr"
    damaged.write_bytes(KINDS[kind](originals(kept, study)))
    try:
        err = parse(run.spec, [damaged]).stderr.decode(errors="replace")
    finally:
        damaged.unlink()
    assert f"{damaged.name}: line 1: {FOREIGN_RUN[kind]}" in err, err[:600]


@pytest.mark.parametrize("which", ["other_seed", "other_buffer"])
@pytest.mark.parametrize("study", STUDIES)
def test_only_the_header_tells_the_same_scenario_apart(
    kept: dict[str, KeptRun], study: str, which: str
) -> None:
    """Without the fingerprint (and hstcp's buffer, and the per-link bounds, which follow the
    buffer) the other run's stream parses: the header is what rejects it, and the corpus's
    foreign runs are whole, real streams."""
    run = kept[study]
    foreign = getattr(run, which)
    drop = ("fingerprint", "buffer", "hops")
    args = {k: v for k, v in run.spec.parser_args.items() if k not in drop}
    spec = dataclasses.replace(run.spec, parser_args=args)
    proc = parse(spec, [foreign.run_dir / foreign.stream])
    assert proc.returncode == 0, proc.stderr.decode()[:600]
    assert b"acct_ok\t1" in proc.stdout


def test_the_corpus_has_at_least_20_kinds() -> None:
    assert len(KINDS) >= 20
