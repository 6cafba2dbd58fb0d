"""The run's header (lib/integrity.awk, integ_header) in the wired parsers and the ramya side
parser, on tiny hand-made inputs: tests/traces/pitfalls.tr with the header line in front.

With -v fingerprint the first line must be "# " fingerprint; each way of differing fails at
line 1 naming the field. Without the variable (hand-made inputs) a header is skipped unchecked
and a trace without one parses as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_wired_parsers import PARAMS, PROGRAMS, TRACES, metrics_of, run

from bufrepro.backends.streamsum import end_line

FP = "bufrepro dumbbell run=0123456789abcdef seed=1 end=2"


def with_header(
    tmp_path: Path, header: str, source: str = "pitfalls.tr", end: str | None = None
) -> str:
    """The hand-made trace with the run's header in front and, by default, the end line ns
    writes after it ("# end LINES SUM" over the header and every line)."""
    path = tmp_path / "headed.tr"
    body = (TRACES / source).read_text(encoding="utf-8")
    if end is None:
        end = end_line((header + body).encode().splitlines()).decode() + "\n"
    path.write_text(header + body + end, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("program", PROGRAMS)
def test_the_header_is_checked_and_changes_no_metric(program: str, tmp_path: Path) -> None:
    plain = metrics_of(run(program, [str(TRACES / "pitfalls.tr")], PARAMS))
    headed = with_header(tmp_path, f"# {FP}\n")
    assert metrics_of(run(program, [headed], {**PARAMS, "fingerprint": FP})) == plain
    # Without the variable, hand-made inputs: a header is skipped unchecked.
    assert metrics_of(run(program, [headed], PARAMS)) == plain


@pytest.mark.parametrize("program", PROGRAMS)
@pytest.mark.parametrize(
    ("header", "rule"),
    [
        ("", "no bufrepro header: the first line is not '# " + FP + "'"),
        ("# bufrepro hstcp run=0123456789abcdef seed=1 end=2\n", "stream of another study: hstcp"),
        (f"# {FP.replace('seed=1', 'seed=2')}\n", "stream of another run: seed 2, expected 1"),
        (f"# {FP.replace('end=2', 'end=3')}\n", "stream of another run: end 3, expected 2"),
        (
            f"# {FP.replace('0123456789abcdef', 'fedcba9876543210')}\n",
            "stream of another run: run fedcba9876543210, expected 0123456789abcdef (the same "
            "seed and end: another value of a swept key",
        ),
        (f"# {FP.replace(' seed=1', '')}\n", "stream of another run: seed (none), expected 1"),
        (f"# {FP}  extra\n", "malformed bufrepro header"),
        (f"# {FP}\r\n", "carriage return in the header"),
        ("# some other tool's comment\n", "no bufrepro header: the first line is '# some other"),
    ],
)
def test_a_foreign_header_fails_at_line_1(
    program: str, header: str, rule: str, tmp_path: Path
) -> None:
    proc = run(program, [with_header(tmp_path, header)], {**PARAMS, "fingerprint": FP})
    assert proc.returncode == 3 and proc.stdout == "", proc.stdout
    assert f"headed.tr: line 1: {rule}" in proc.stderr, proc.stderr


@pytest.mark.parametrize("program", PROGRAMS)
def test_a_stream_without_its_end_line_was_cut_short(program: str, tmp_path: Path) -> None:
    proc = run(program, [with_header(tmp_path, f"# {FP}\n", end="")], {**PARAMS, "fingerprint": FP})
    assert proc.returncode == 3 and proc.stdout == "", proc.stdout
    assert 'no end line "# end LINES SUM" after the last event (2.000000 s; the end 2 s)' in (
        proc.stderr
    )


@pytest.mark.parametrize("program", PROGRAMS)
@pytest.mark.parametrize(
    ("end", "rule"),
    [
        ("# end\n2.0 + 4 5 tcp 1040 ------- 1 0.0 6.0 9 8\n", "a line after the end line"),
        ("# end\n# end\n", "a line after the end line"),
        ("# the end\n", "a '#' line other than the header and the end line"),
        ("# end\n", "is not '# end LINES SUM' (a bare \"# end\""),
        ("# end 3 12345\n", "lines lost, added or changed"),
    ],
)
def test_the_end_line_is_last_and_exact(program: str, end: str, rule: str, tmp_path: Path) -> None:
    proc = run(
        program, [with_header(tmp_path, f"# {FP}\n", end=end)], {**PARAMS, "fingerprint": FP}
    )
    assert proc.returncode == 3 and proc.stdout == "", proc.stdout
    assert rule in proc.stderr, proc.stderr


@pytest.mark.parametrize("program", PROGRAMS)
def test_a_run_that_ends_quiet_is_whole(program: str, tmp_path: Path) -> None:
    # The last event at 2 s of a 6 s run (every flow in a retransmission back-off, a slow CBR):
    # the end line proves the trace whole. Without it, the one-event-gap heuristic that judges
    # hand-made inputs calls such a trace cut short.
    fp, params = FP.replace("end=2", "end=6"), {**PARAMS, "t_end": 6, "max_age": 5}
    proc = run(program, [with_header(tmp_path, f"# {fp}\n")], {**params, "fingerprint": fp})
    assert proc.returncode == 0, proc.stderr
    bare = run(program, [str(TRACES / "pitfalls.tr")], params)
    assert bare.returncode == 3 and "more than one event gap" in bare.stderr, bare.stderr


def test_a_header_only_stream_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "only.tr"
    path.write_text(f"# {FP}\n", encoding="utf-8")
    proc = run(PROGRAMS[0], [str(path)], {**PARAMS, "fingerprint": FP})
    assert proc.returncode == 3 and "empty stream" in proc.stderr, proc.stderr


def _side_files(tmp_path: Path, headers: tuple[str, str, str]) -> list[str]:
    bodies = ("1.0 0 0 3 0 rtt_ 0.1\n", "s 1.0 0\nr 1.5 0 10.0 10.0\n", "0 0\n1 2\n2 1\n")
    out = []
    for name, head, body in zip(("rtt.tr", "ping.tr", "queue.tr"), headers, bodies, strict=True):
        # A headed file ends as ns ends it: "# end LINES SUM" over its header and lines.
        end = end_line((head + body).encode().splitlines()).decode() + "\n" if head else ""
        (tmp_path / name).write_text(head + body + end, encoding="utf-8")
        out.append(str(tmp_path / name))
    return out


def test_side_files_each_carry_the_header(tmp_path: Path) -> None:
    fp = FP.replace("dumbbell", "ramya")
    params = {"t0": 0, "t1": 2, "t_end": 2}
    good = (f"# {fp}\n",) * 3
    plain = metrics_of(run("ramya/side.awk", _side_files(tmp_path, ("", "", "")), params))
    headed = _side_files(tmp_path, good)
    assert metrics_of(run("ramya/side.awk", headed, {**params, "fingerprint": fp})) == plain
    for i, name in enumerate(("rtt.tr", "ping.tr", "queue.tr")):
        bad = f"# {fp.replace('seed=1', 'seed=2')}\n"
        heads = (*good[:i], bad, *good[i + 1 :])
        files = _side_files(tmp_path, (heads[0], heads[1], heads[2]))
        proc = run("ramya/side.awk", files, {**params, "fingerprint": fp})
        assert proc.returncode == 3 and proc.stdout == ""
        assert f"{name}: line 1: stream of another run: seed 2, expected 1" in proc.stderr


def test_an_empty_side_file_lacks_the_header(tmp_path: Path) -> None:
    fp = FP.replace("dumbbell", "ramya")
    files = _side_files(tmp_path, (f"# {fp}\n",) * 3)
    Path(files[1]).write_text("", encoding="utf-8")
    proc = run("ramya/side.awk", files, {"t0": 0, "t1": 2, "t_end": 2, "fingerprint": fp})
    assert proc.returncode == 3 and "ping.tr: empty file: no bufrepro header" in proc.stderr
