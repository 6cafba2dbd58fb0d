"""The fault corpus on ramya's side files (rtt.tr, ping.tr, queue.tr, read by ramya/side.awk
after ns-2 exits): each damaged file fails the side parser loudly, naming the file, with no
number written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fault_runs import KeptRun, kept_runs, parse
from mutations import lines, noise

pytestmark = pytest.mark.usefixtures("ns_available")

SIDE = ("rtt.tr", "ping.tr", "queue.tr")


def _half(data: bytes) -> bytes:
    ls = lines(data)
    return b"".join(ls[: len(ls) // 2])


def _first_field(value: bytes, at: int = 0) -> Callable[[bytes], bytes]:
    """A line from the middle on with its field `at` replaced by value."""

    def edit(data: bytes) -> bytes:
        ls = lines(data)
        k = len(ls) // 2
        f = ls[k].split()
        f[at] = value
        ls[k] = b" ".join(f) + b"\n"
        return b"".join(ls)

    return edit


def _dup(data: bytes) -> bytes:
    ls = lines(data)
    k = len(ls) // 2
    return b"".join([*ls[: k + 1], ls[k], *ls[k + 1 :]])


def _drop_field(data: bytes) -> bytes:
    ls = lines(data)
    k = len(ls) // 2
    ls[k] = b" ".join(ls[k].split()[:-1]) + b"\n"
    return b"".join(ls)


def _headless(data: bytes) -> bytes:
    ls = lines(data)
    assert ls[0].startswith(b"# bufrepro ramya "), ls[0][:80]
    return b"".join(ls[1:])


def _header(text: bytes) -> Callable[[bytes], bytes]:
    """The file with its header replaced by `text`."""

    def edit(data: bytes) -> bytes:
        return b"".join([text, *lines(data)[1:]])

    return edit


# (file, mutation) per kind.
KINDS: dict[str, tuple[str, Callable[[bytes], bytes]]] = {
    "queue_cut_to_half": ("queue.tr", _half),
    "queue_emptied": ("queue.tr", lambda d: b""),
    "ping_cut_to_half": ("ping.tr", _half),
    "rtt_crlf": ("rtt.tr", lambda d: d.replace(b"\n", b"\r\n")),
    "ping_crlf": ("ping.tr", lambda d: d.replace(b"\n", b"\r\n")),
    "queue_crlf": ("queue.tr", lambda d: d.replace(b"\n", b"\r\n")),
    "rtt_line_missing_field": ("rtt.tr", _drop_field),
    "ping_line_missing_field": ("ping.tr", _drop_field),
    "rtt_non_numeric_time": ("rtt.tr", _first_field(b"1.2.3")),
    "ping_non_numeric_time": ("ping.tr", _first_field(b"abc", 1)),
    "queue_time_backwards": ("queue.tr", _first_field(b"0.000001")),
    "ping_duplicated_line": ("ping.tr", _dup),
    "queue_duplicated_line": ("queue.tr", _dup),
    "ping_reply_never_sent": ("ping.tr", lambda d: d + b"r 3.999 999999 1.0 1.0\n"),
    "queue_binary": ("queue.tr", lambda d: noise(4096, 3)),
    "rtt_nul_byte": ("rtt.tr", lambda d: d[:5] + b"\0" + d[5:]),
    "queue_huge_line": ("queue.tr", lambda d: d + b"9" * 1_000_000 + b"\n"),
    "ping_random_bytes_appended": ("ping.tr", lambda d: d + noise(200, 4)),
    "queue_time_after_end": ("queue.tr", lambda d: d + b"60 1\n"),
    "rtt_file_twice": ("rtt.tr", lambda d: d + d),
    "rtt_header_missing": ("rtt.tr", _headless),
    "ping_header_missing": ("ping.tr", _headless),
    "queue_header_missing": ("queue.tr", _headless),
    "queue_header_of_another_study": (
        "queue.tr",
        _header(b"# bufrepro dumbbell run=0123456789abcdef seed=1 end=4\n"),
    ),
    "ping_emptied": ("ping.tr", lambda d: b""),
}


@pytest.fixture(scope="module")
def ramya(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> KeptRun:
    return kept_runs(tmp_path_factory.mktemp("originals"))["ramya"]


def test_the_original_side_files_parse(ramya: KeptRun) -> None:
    proc = parse(ramya.spec, [ramya.spec.run_dir / f for f in SIDE], ramya.spec.side_parser)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"ping_loss_rate\t" in proc.stdout and b"qmon_samples\t" in proc.stdout


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_damaged_side_file_fails_loudly(ramya: KeptRun, kind: str) -> None:
    target, mutate = KINDS[kind]
    d = ramya.spec.run_dir
    damaged = d / f"fault-{kind}"
    damaged.write_bytes(mutate((d / target).read_bytes()))
    files = [damaged if name == target else d / name for name in SIDE]
    try:
        proc = parse(ramya.spec, files, ramya.spec.side_parser)
    finally:
        damaged.unlink()
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode != 0 and proc.stdout == b"", proc.stdout[:300]
    assert damaged.name in err and "line " in err, err[:600]


@pytest.mark.parametrize("which", ["other_seed", "other_buffer"])
@pytest.mark.parametrize("name", SIDE)
def test_a_side_file_of_the_same_scenario_with_another_seed_or_buffer_fails(
    ramya: KeptRun, name: str, which: str
) -> None:
    """One side file taken from the same scenario run with another seed or buffer: its header
    fails it at line 1, naming the field (the seed, or the run digest)."""
    d, foreign = ramya.spec.run_dir, getattr(ramya, which).run_dir / name
    files = [foreign if f == name else d / f for f in SIDE]
    proc = parse(ramya.spec, files, ramya.spec.side_parser)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode != 0 and proc.stdout == b"", proc.stdout[:300]
    field = "seed 2, expected 1" if which == "other_seed" else "run "
    assert f"{foreign}: line 1: stream of another run: {field}" in err, err[:600]


def test_the_side_corpus_has_at_least_20_kinds() -> None:
    assert len(KINDS) >= 20
