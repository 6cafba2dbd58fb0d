"""The end line's checksum: the Python reference and awk/lib/streamsum.awk agree on hand-made
lines carrying the pitfalls (tabs, padding, signs, exponents, number prefixes, zeros, words),
and a single changed value, word, field order or line order changes the sum."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bufrepro.backends.awk import AWK_DIR, PARSER_ENV
from bufrepro.backends.streamsum import MAX_FIELDS, P, checksum, end_line, line_value

LINES = [
    b"# bufrepro dumbbell run=0123456789abcdef seed=1 end=2",
    b"+ 0.1 0 4 tcp 1040 ------- 1 0.0 6.0 0 0",
    b"r 1.234567 4 5 ack 40 ------- 1 6.0 0.0 -1 12",
    b"0.10000  0  0  3  0  rtt_  0.100  ",  # TCP's padded rtt_ trace line
    b"metric\ttcp_delay_ms_mean\t12.345678",
    b"s 0.00028404050000000001 0",
    b"1e-06 2E+3 -0 +5 .5 5. 12abc 0x1f nan inf 1.0.1.2",
    b"",
    b"r -t 2.005727111 -Hs 6 -Hd 4194305 -Nl AGT -Ii 15 -Ps 0",
]


def awk_end(lines: list[bytes], tmp_path: Path) -> bytes:
    path = tmp_path / "s.tr"
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    prog = '{ ssum_line() } END { printf "# end %d %d\\n", SSUM_N, SSUM_H }'
    out = subprocess.run(
        [
            "gawk",
            "-f",
            str(AWK_DIR / "lib" / "metrics.awk"),
            "-f",
            str(AWK_DIR / "lib" / "streamsum.awk"),
            "-e",
            prog,
            str(path),
        ],
        capture_output=True,
        check=True,
        env={**PARSER_ENV, "PATH": "/usr/bin:/bin"},
    )
    return out.stdout.strip()


def test_python_and_awk_agree(tmp_path: Path) -> None:
    assert awk_end(LINES, tmp_path) == end_line(LINES)
    n, h = checksum(LINES)
    assert n == len(LINES) and 0 <= h < P


@pytest.mark.parametrize(
    ("line", "edited"),
    [
        (b"r 1.234567 4 5 tcp 1040", b"d 1.234567 4 5 tcp 1040"),  # event
        (b"r 1.234567 4 5 tcp 1040", b"r 1.234567 4 5 tcp 1000"),  # size
        (b"r 1.234567 4 5 tcp 1040", b"r 1.234567 4 5 tcp big"),  # not a number
        (b"r 1.234567 4 5 tcp 1040", b"r 1.234568 4 5 tcp 1040"),  # a microsecond
        (b"s 0.10000000000000001 0", b"s 0.10000000000000003 0"),  # the next double
        (b"r 1.234567 4 5 tcp 1040", b"r 1.234567 5 4 tcp 1040"),  # fields swapped
        (b"r 1.234567 4 5 tcp 1040", b"r 1.234567 4 5 ack 1040"),  # a word
        (b"r 1.234567 4 5 tcp 1040", b"r  1.234567 4 5 tcp 1040"),  # a blank added
    ],
)
def test_a_single_edit_changes_the_line_value(line: bytes, edited: bytes) -> None:
    assert line_value(line) != line_value(edited)


def test_the_order_of_lines_counts() -> None:
    assert checksum(LINES[:3]) != checksum([LINES[0], LINES[2], LINES[1]])


def test_too_many_fields_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at most 90"):
        line_value(b" ".join([b"1"] * (MAX_FIELDS + 1)))


def test_a_signed_inf_or_nan_fails_the_end_line(tmp_path: Path) -> None:
    # gawk reads "-inf" and "+nan" as IEEE values (the spec's number prefix has none): the sum
    # becomes NaN, which matches no end line, so such a stream fails loudly.
    lines = [LINES[0], b"r 1.0 -inf +nan"]
    assert awk_end(lines, tmp_path).endswith(b"nan")
    assert awk_end(lines, tmp_path) != end_line(lines)
