"""The fault corpus: ways a kept stream can be damaged or be another run's, as byte mutations."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Originals:
    """What a mutation starts from: the run's own stream and two foreign ones."""

    own: bytes
    other_scenario: bytes  # the same study, another scenario (other capacity, delay or buffer)
    other_study: bytes  # another study's stream
    other_seed: bytes  # the same scenario run with another seed
    other_buffer: bytes  # the same scenario (capacity, delays) run with another buffer
    bottleneck: tuple[str, str]  # the measured link's end nodes, as the stream writes them


def lines(data: bytes) -> list[bytes]:
    """The stream's lines, each with its newline (split at "\n" only)."""
    parts = data.split(b"\n")
    return [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def fields(line: bytes) -> list[bytes]:
    return line.split()


def time_at(f: list[bytes]) -> int | None:
    """Index of a line's time field: wired/hstcp/ramya $2, wireless ("-t") $3; None: no time."""
    if len(f) > 2 and f[1] == b"-t":
        return 2
    if len(f) > 1 and f[0] in (b"+", b"-", b"r", b"d", b"Q", b"s", b"E"):
        return 1
    return None


def timed(data: bytes, start: float = 0.4) -> list[int]:
    """Indexes of lines with a time, from `start` of the stream on (by line count)."""
    ls = lines(data)
    first = int(len(ls) * start)
    return [i for i in range(first, len(ls)) if time_at(fields(ls[i])) is not None]


def with_line(data: bytes, edit: Callable[[list[bytes]], list[bytes]], start: float = 0.5) -> bytes:
    """The stream with one timed line (the first from `start` on) replaced by edit(fields)."""
    ls = lines(data)
    i = timed(data, start)[0]
    ls[i] = b" ".join(edit(fields(ls[i]))) + b"\n"
    return b"".join(ls)


def set_time(value: bytes) -> Callable[[list[bytes]], list[bytes]]:
    def edit(f: list[bytes]) -> list[bytes]:
        at = time_at(f)
        assert at is not None
        return [*f[:at], value, *f[at + 1 :]]

    return edit


def back_in_time(data: bytes) -> bytes:
    """A late line's time set 1 s (or to 0 s) before the lines around it."""
    ls = lines(data)
    i = timed(data, 0.8)[0]
    f = fields(ls[i])
    at = time_at(f)
    assert at is not None
    earlier = max(0.0, float(f[at]) - 1.0)
    return with_line(data, set_time(f"{earlier:.6f}".encode()), 0.8)


def renumber_bottleneck(o: Originals) -> bytes:
    """Every event on the measured link moved to nodes 14 -> 15 (another topology)."""
    a, b = o.bottleneck
    out = []
    for line in lines(o.own):
        f = fields(line)
        if len(f) >= 4 and f[1] != b"-t" and (f[2], f[3]) == (a.encode(), b.encode()):
            line = b" ".join([*f[:2], b"14", b"15", *f[4:]]) + b"\n"
        out.append(line)
    assert out != lines(o.own), "no event on the bottleneck to renumber"
    return b"".join(out)


def foreign_node(o: Originals) -> bytes:
    """One wired event's from-node set to 99, a node the scenario does not have."""
    ls = lines(o.own)
    for i in timed(o.own, 0.5):
        f = fields(ls[i])
        if len(f) == 12 and f[1] != b"-t":
            ls[i] = b" ".join([*f[:2], b"99", *f[3:]]) + b"\n"
            return b"".join(ls)
    raise AssertionError("no wired line")


def swap_lines(data: bytes) -> bytes:
    """Two neighbouring lines of different times swapped (the later one first)."""
    ls = lines(data)
    idx = timed(data, 0.5)
    for i, j in itertools.pairwise(idx):
        fi, fj = fields(ls[i]), fields(ls[j])
        ti, tj = time_at(fi), time_at(fj)
        assert ti is not None and tj is not None
        if float(fj[tj]) > float(fi[ti]):
            ls[i], ls[j] = ls[j], ls[i]
            return b"".join(ls)
    raise AssertionError("no two lines of different times")


def after_end(data: bytes) -> bytes:
    """The last timed line again, 50 s later than the scenario's end could be."""
    ls = lines(data)
    i = timed(data, 0.0)[-1]
    f = fields(ls[i])
    at = time_at(f)
    assert at is not None
    late = f"{float(f[at]) + 50:.6f}".encode()
    return data + b" ".join([*f[:at], late, *f[at + 1 :]]) + b"\n"


def noise(n: int, seed: int) -> bytes:
    """n reproducible random bytes (NULs and newlines included)."""
    return random.Random(seed).randbytes(n)


def _keep(data: bytes, lo: float, hi: float) -> bytes:
    ls = lines(data)
    return b"".join(ls[int(len(ls) * lo) : int(len(ls) * hi)])


def _cut_mid_line(data: bytes) -> bytes:
    ls = lines(data)
    k = int(len(ls) * 0.95)
    return b"".join(ls[:k]) + ls[k][: len(ls[k]) // 2]


def _insert(data: bytes, text: bytes, at: float = 0.5) -> bytes:
    ls = lines(data)
    k = timed(data, at)[0]
    return b"".join([*ls[:k], text, *ls[k:]])


def _duplicate_block(data: bytes) -> bytes:
    ls = lines(data)
    k = timed(data, 0.5)[0]
    return b"".join([*ls[: k + 5], *ls[k : k + 5], *ls[k + 5 :]])


def _nul(data: bytes) -> bytes:
    ls = lines(data)
    k = timed(data, 0.5)[0]
    ls[k] = ls[k][:3] + b"\0" + ls[k][3:]
    return b"".join(ls)


def _without_header(data: bytes) -> bytes:
    """The stream without its first line (the run's header)."""
    ls = lines(data)
    assert ls[0].startswith(b"# bufrepro "), ls[0][:80]
    return b"".join(ls[1:])


def _header_of(donor: bytes, data: bytes) -> bytes:
    """The stream with its header replaced by the donor stream's header."""
    head, ls = lines(donor)[0], lines(data)
    assert head.startswith(b"# bufrepro ") and head != ls[0], head[:80]
    return b"".join([head, *ls[1:]])


# Each kind: a function of the originals giving the damaged or foreign stream.
KINDS: dict[str, Callable[[Originals], bytes]] = {
    "cut_last_10pct_at_line_boundary": lambda o: _keep(o.own, 0.0, 0.9),
    "cut_to_half": lambda o: _keep(o.own, 0.0, 0.5),
    "cut_mid_line": lambda o: _cut_mid_line(o.own),
    "cut_first_10pct": lambda o: _keep(o.own, 0.1, 1.0),
    "emptied": lambda o: b"",
    "random_bytes_appended": lambda o: o.own + noise(300, 1),
    "binary_file": lambda o: noise(65536, 2),
    "line_missing_fields": lambda o: with_line(o.own, lambda f: f[:-3]),
    "line_extra_field": lambda o: with_line(o.own, lambda f: [*f, b"7"]),
    "blank_line": lambda o: _insert(o.own, b"\n"),
    "huge_line": lambda o: _insert(o.own, b"x" * 1_000_000 + b"\n"),
    "nul_byte": lambda o: _nul(o.own),
    "bottleneck_renumbered": renumber_bottleneck,
    "foreign_node": foreign_node,
    "non_numeric_time": lambda o: with_line(o.own, set_time(b"1.5e")),
    "time_backwards": lambda o: back_in_time(o.own),
    "lines_swapped": lambda o: swap_lines(o.own),
    "time_after_end": lambda o: after_end(o.own),
    "duplicated_lines": lambda o: _duplicate_block(o.own),
    "stream_twice": lambda o: o.own + o.own,
    "unknown_event": lambda o: with_line(o.own, lambda f: [b"X", *f[1:]]),
    "crlf_endings": lambda o: o.own.replace(b"\n", b"\r\n"),
    "other_scenario_same_study": lambda o: o.other_scenario,
    "other_study": lambda o: o.other_study,
    # A stream of the same scenario that only its header tells apart (the run's fingerprint).
    "same_scenario_other_seed": lambda o: o.other_seed,
    "same_scenario_other_buffer": lambda o: o.other_buffer,
    "header_missing": lambda o: _without_header(o.own),
    "header_of_another_study": lambda o: _header_of(o.other_study, o.own),
    "header_of_another_seed": lambda o: _header_of(o.other_seed, o.own),
}
