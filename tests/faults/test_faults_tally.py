"""The fault corpus on WiredTally streams (trace_level tally): every kind of truncated,
foreign, duplicated or corrupted tally stream fails the study's parser loudly (non-zero exit,
the file, a line number and the rule on stderr) and writes no number.

The originals are real tiny runs of dumbbell and ramya at trace_level tally (the patched ns),
streams kept; tally_mutations.KINDS is applied to each and parsed as execute() parses it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import fault_runs
import pytest
from fault_runs import KeptRun, config, kept_run, parse
from mutations import Originals
from tally_mutations import KINDS, edited, split

from bufrepro.backends.streamsum import end_line

pytestmark = pytest.mark.usefixtures("ns_available")

TALLY_STUDIES = ("dumbbell", "ramya")
FOREIGN = {"dumbbell": "ramya", "ramya": "dumbbell"}
BOTTLENECK = {"dumbbell": ("4", "5"), "ramya": ("1", "2")}


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, KeptRun]:
    """Each study's tiny runs at trace_level tally, plus ("<study>-full") the text-trace ones."""
    where = tmp_path_factory.mktemp("tally-originals")
    runs = {}
    for level in ("tally", "full"):
        cfg = config()
        for study in TALLY_STUDIES:
            cfg[study]["trace_level"] = level
            key = study if level == "tally" else f"{study}-full"
            runs[key] = kept_run(cfg, study, where / level)
    return runs


def originals(kept: dict[str, KeptRun], study: str) -> Originals:
    return fault_runs.originals(kept, study, kept[FOREIGN[study]], BOTTLENECK[study])


def assert_fails_loudly(proc: object, name: str) -> None:
    """Non-zero exit; the file, a line number and a reason on stderr; nothing on stdout."""
    rc, out, err = proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")  # type: ignore[attr-defined]
    assert rc != 0, f"exit 0 on {name}: {out[:300]!r}"
    assert out == b"", f"numbers written on {name}: {out[:300]!r}"
    assert name in err and "line " in err, err[:600]


@pytest.mark.parametrize("study", TALLY_STUDIES)
def test_the_originals_parse_and_are_sealed(kept: dict[str, KeptRun], study: str) -> None:
    """The unmutated stream passes, and its end line is the corpus's checksum of its body."""
    run = kept[study]
    proc = parse(run.spec, [run.stream])
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"acct_ok\t1" in proc.stdout
    # What execute() kept (ramya adds its side files' metrics).
    kept_lines = set((run.spec.run_dir / "metrics.tsv").read_bytes().splitlines())
    assert set(proc.stdout.splitlines()) <= kept_lines
    _, body = split(run.stream.read_bytes())
    end = run.stream.read_bytes().splitlines()[-1]
    assert end == end_line(run.stream.read_bytes().splitlines()[:-1]) and len(body) > 3


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("study", TALLY_STUDIES)
def test_a_damaged_or_foreign_tally_stream_fails_loudly(
    kept: dict[str, KeptRun], study: str, kind: str
) -> None:
    run = kept[study]
    name = f"fault-{kind}.tr"
    damaged = run.spec.run_dir / name
    damaged.write_bytes(KINDS[kind](originals(kept, study)))
    try:
        assert_fails_loudly(parse(run.spec, [damaged]), name)
    finally:
        damaged.unlink()


@pytest.mark.parametrize("study", TALLY_STUDIES)
def test_a_stream_of_the_other_trace_level_fails(kept: dict[str, KeptRun], study: str) -> None:
    """The text trace fed to the tally parser, and the tally stream to the text parser, fail
    (the same run: only the trace level differs)."""
    tally_run, full_run = kept[study], kept[f"{study}-full"]
    assert_fails_loudly(parse(tally_run.spec, [full_run.stream]), full_run.spec.stream)
    assert_fails_loudly(parse(full_run.spec, [tally_run.stream]), tally_run.spec.stream)


@pytest.mark.parametrize("study", TALLY_STUDIES)
def test_only_the_header_tells_the_same_scenario_apart(
    kept: dict[str, KeptRun], study: str
) -> None:
    """Without the fingerprint the other seed's tally stream parses: the header rejects it."""
    run = kept[study]
    args = {k: v for k, v in run.spec.parser_args.items() if k != "fingerprint"}
    spec = dataclasses.replace(run.spec, parser_args=args)
    proc = parse(spec, [run.other_seed.run_dir / run.other_seed.stream])
    assert proc.returncode == 0, proc.stderr.decode()[:600]


def test_the_tally_corpus_has_at_least_30_kinds() -> None:
    assert len(KINDS) >= 30


def _ended_quiet(data: bytes, quiet_gaps: float) -> bytes:
    """The stream resealed as if its last event came quiet_gaps x its largest gap before t_end
    (the gap set to 1.1 max_age, so the quiet is past max_age): lines last, gap and the
    acct_trace_end metric edited."""
    _, body = split(data)
    value = {
        ln.split(b"\t")[1]: ln.split(b"\t")[2].strip() for ln in body if ln.startswith(b"param\t")
    }
    t_end, max_age = float(value[b"t_end"]), float(value[b"max_age"])
    gap = 1.1 * max_age
    last = b"%.6f" % (t_end - quiet_gaps * gap)

    def edit(lines: list[bytes]) -> list[bytes]:
        out = []
        for ln in lines:
            if ln.startswith(b"last\t"):
                ln = b"last\t" + last + b"\n"
            elif ln.startswith(b"gap\t"):
                ln = b"gap\t%.6f\n" % gap
            elif ln.startswith(b"metric\tacct_trace_end\t"):
                ln = b"metric\tacct_trace_end\t" + last + b"\n"
            out.append(ln)
        return out

    return edited(data, edit, seal=True)


@pytest.mark.parametrize("study", TALLY_STUDIES)
def test_a_quiet_end_up_to_twice_the_largest_gap_is_whole(
    kept: dict[str, KeptRun], study: str
) -> None:
    """Sparse traffic or TCP's doubling back-off may end a run quiet: up to twice the run's
    largest gap between events it is whole, beyond that it is a run stopped early."""
    run = kept[study]
    for gaps, whole in ((1.5, True), (2.5, False)):
        quiet = run.spec.run_dir / f"quiet-{gaps}.tr"
        quiet.write_bytes(_ended_quiet(run.stream.read_bytes(), gaps))
        try:
            proc = parse(run.spec, [quiet])
            err = proc.stderr.decode(errors="replace")
            if whole:
                assert proc.returncode == 0, err
            else:
                assert proc.returncode != 0 and "more than twice the run's largest gap" in err
        finally:
            quiet.unlink()
