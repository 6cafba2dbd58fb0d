"""The end line "# end LINES SUM" of every parsed stream: the reference of its checksum."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

# docs/trusting-a-run.md ("Stream format") defines it; ns-2 writes it (ns2/patches/0008,
# StreamSum), awk/lib/streamsum.awk checks it. This module is the reference the tests and
# other backends compare with.
P = 2**40 - 87
MAX_FIELDS = 90
_BLANKS = re.compile(rb"[ \t]+")
_NUMBER = re.compile(rb"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def field_value(field: bytes) -> int:
    """c(f): a number's every bit (its double scaled by 2^30: integer part and the fraction's
    52 bits, each mod P), a word's (or a zero's) byte hash."""
    match = _NUMBER.match(field)
    x = float(match.group()) if match else 0.0
    if x != 0.0:
        y = x * 2.0**30
        hi = float(math.trunc(y))
        lo = float(math.trunc((y - hi) * 2.0**52))
        return int(math.fmod(hi, P)) + int(math.fmod(lo, P))
    w = 0
    for byte in field:
        w = (w * 257 + byte) % P
    return w


def line_value(line: bytes) -> int:
    """v(L) for one line without its newline (fields split at runs of spaces and tabs)."""
    fields = [f for f in _BLANKS.split(line) if f]
    if len(fields) > MAX_FIELDS:
        raise ValueError(f"a line of {len(fields)} fields (at most {MAX_FIELDS})")
    s = len(line) + sum(i * field_value(f) for i, f in enumerate(fields, 1))
    return int(math.fmod(s, P))


def checksum(lines: Iterable[bytes]) -> tuple[int, int]:
    """(LINES, SUM) of the lines (each without its newline), in order."""
    n = h = 0
    for line in lines:
        n += 1
        h = (h * 31 + line_value(line) + P) % P
    return n, h


def end_line(lines: Iterable[bytes]) -> bytes:
    """The end line ns writes after `lines`: b"# end LINES SUM" (no newline)."""
    n, h = checksum(lines)
    return b"# end %d %d" % (n, h)


def seal(data: bytes) -> bytes:
    """A stream's lines (header first, no end line) followed by their end line."""
    lines = data.splitlines()
    return data + end_line(lines) + b"\n"
