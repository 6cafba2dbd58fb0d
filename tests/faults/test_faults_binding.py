"""The binding corpus (binding_mutations): every mishap fails its parser loudly, per stream format.

Formats: the text traces of dumbbell, ramya and vegas (trace_level full), hstcp's counter
stream (trace_level counters), the WiredTally streams of dumbbell and ramya and vegas's
MixedTally stream (trace_level tally), and ramya's three side files (rtt, ping, queue). The
originals are real tiny runs, streams kept; each mutation is parsed as execute() parses the
stream: a non-zero exit, nothing on stdout, the file and a line number on stderr. Every class
has at least 20 mishaps for every format it applies to (hstcp's resealed edits and deletions:
hstcp_mutations; ns-3's hstcp stream: test_faults_ns3.py).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import binding_mutations as bm
import hstcp_mutations as hm
import pytest
from fault_runs import KeptRun, config, kept_run, kept_runs, parse

from bufrepro.backends.base import RunSpec
from bufrepro.backends.streamsum import field_value

pytestmark = pytest.mark.usefixtures("ns_available")

TEXT = ("dumbbell", "hstcp", "ramya", "vegas")
TALLY = ("dumbbell", "ramya", "vegas")
SIDES = ("rtt", "ping", "queue")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, KeptRun]:
    """text:<study> (the fault corpus's full-trace runs) and tally:<study> (trace_level tally)."""
    out = {f"text:{s}": r for s, r in kept_runs(tmp_path_factory.mktemp("text")).items()}
    cfg = config()
    where = tmp_path_factory.mktemp("tally")
    for study in TALLY:
        cfg[study]["trace_level"] = "tally"
        out[f"tally:{study}"] = kept_run(cfg, study, where)
    return out


def _lines(path: Path) -> bm.Lines:
    return path.read_bytes().split(b"\n")[:-1]


def _side(spec: RunSpec, which: str) -> int:
    return next(i for i, f in enumerate(spec.side_files) if which in f)


def _parse(run: KeptRun, fmt: str, name: str, data: bm.Lines) -> subprocess.CompletedProcess[bytes]:
    """Write the mutated stream beside the run's and parse it as execute() would."""
    path = run.spec.run_dir / name
    path.write_bytes(b"".join(x + b"\n" for x in data))
    try:
        if fmt.startswith("side:"):
            files = [run.spec.run_dir / f for f in run.spec.side_files]
            files[_side(run.spec, fmt[5:])] = path
            return parse(run.spec, files, run.spec.side_parser)
        return parse(run.spec, [path])
    finally:
        path.unlink()


def _original(runs: dict[str, KeptRun], fmt: str) -> tuple[KeptRun, Callable[[RunSpec], Path]]:
    """The run a format's stream comes from, and where that stream is in a run (own or sibling)."""
    if fmt.startswith("side:"):
        which = fmt[5:]
        return runs["text:ramya"], lambda s: s.run_dir / s.side_files[_side(s, which)]
    return runs[fmt], lambda s: s.run_dir / s.stream


def _loud(proc: subprocess.CompletedProcess[bytes], name: str) -> str:
    """'' when the parse failed loudly, else what went wrong."""
    err = proc.stderr.decode(errors="replace")
    if proc.returncode == 0:
        return f"{name}: exit 0"
    if proc.stdout:
        return f"{name}: numbers written"
    if name not in err or "line " not in err:
        return f"{name}: stderr names no file and line: {err[:200]}"
    return ""


def _unread(a: bm.Lines, b: bm.Lines) -> bool:
    """One line differs in nothing the checksum (and so a parser) reads: the same length, every
    field the same double (num) or the same word. A digit past a double's 17th significant
    one, or past the numeric prefix of a hierarchical address "1.0.1.2", changes no number."""
    diff = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    if len(a) != len(b) or len(diff) != 1:
        return False
    x, y = diff[0]
    fx, fy = x.split(), y.split()
    return (
        len(x) == len(y)
        and len(fx) == len(fy)
        and all(field_value(f) == field_value(g) for f, g in zip(fx, fy, strict=True))
    )


def _horizon(spec: RunSpec, fmt: str) -> tuple[float, float]:
    """The run's end and how far before it a stream may legitimately end: the path's longest
    transit (max_age) where the parser has it, else 1 s (hstcp: its samples; side files: their
    own event gaps, a fraction of a second on these tiny runs)."""
    args = spec.parser_args
    t_end = float(args.get("t_end", args.get("t1", 0)))
    if fmt.startswith("side:") or "max_age" not in args:
        return t_end, 1.0
    return t_end, float(args["max_age"])


FORMATS = (
    *(f"text:{s}" for s in TEXT),
    *(f"tally:{s}" for s in TALLY),
    *(f"side:{s}" for s in SIDES),
)


def classes(fmt: str, runs: dict[str, KeptRun]) -> dict[str, dict[str, bm.Mutation]]:
    """Each class's mutations that apply to the format."""
    run, stream = _original(runs, fmt)
    donors = {
        "other_seed": _lines(stream(run.other_seed)),
        "other_buffer": _lines(stream(run.other_buffer)),
        "other_scenario": _lines(stream(run.other)),
    }
    out: dict[str, dict[str, bm.Mutation]] = {
        "cut_reended": bm.CUT,
        "edited": bm.generic_edits(),
        "spliced": bm.splices(donors),
    }
    if fmt.startswith("text:") or fmt in ("side:ping", "side:queue"):
        # rtt.tr traces rtt_ on change only: a quiet end is legitimate, its end is not checked
        out["cut_resealed"] = bm.cuts_resealed(*_horizon(run.spec, fmt))
    if fmt in ("text:dumbbell", "text:ramya"):
        out["resealed_edit"] = {k: bm.resealed(m) for k, m in bm.wired_edits().items()}
        out["deleted_resealed"] = bm.deletions()
    elif fmt == "text:hstcp":
        out["resealed_edit"] = hm.edits()
        out["deleted_resealed"] = hm.deletions()
        out["rescaled"] = hm.rescaled()
    elif fmt == "text:vegas":
        out["resealed_edit"] = {k: bm.resealed(m) for k, m in bm.vegas_edits().items()}
    else:  # tally streams and side files: a value that is not a number, resealed
        out["resealed_edit"] = {k: bm.resealed(m) for k, m in bm.not_numbers(fmt).items()}
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_original_passes(runs: dict[str, KeptRun], fmt: str) -> None:
    run, stream = _original(runs, fmt)
    data = _lines(stream(run.spec))
    assert data[-1] == bm.end_line(data[:-1]), data[-1]
    proc = _parse(run, fmt, "original-copy.tr", data)
    assert proc.returncode == 0, proc.stderr.decode()[:600]


CLASSES = (
    "cut_reended",
    "cut_resealed",
    "edited",
    "spliced",
    "resealed_edit",
    "deleted_resealed",
    "rescaled",
)


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_mishap_fails_loudly(runs: dict[str, KeptRun], fmt: str, cls: str) -> None:
    kinds = classes(fmt, runs).get(cls)
    if kinds is None:
        pytest.skip(f"{cls} does not apply to {fmt}")
    assert len(kinds) >= 20, f"{fmt} {cls}: {len(kinds)} mishaps"
    run, stream = _original(runs, fmt)
    original = _lines(stream(run.spec))
    quiet = []
    for name, mutate in sorted(kinds.items()):
        damaged = mutate(original)
        if damaged == original or _unread(original, damaged):
            continue  # e.g. another buffer's identical body: no mishap at all
        problem = _loud(
            _parse(run, fmt, f"fault-{cls}-{name}.tr", damaged), f"fault-{cls}-{name}.tr"
        )
        if problem:
            quiet.append(problem)
    assert not quiet, f"{len(quiet)} of {len(kinds)} passed or failed quietly:\n" + "\n".join(quiet)
