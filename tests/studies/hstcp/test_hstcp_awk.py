"""awk/hstcp/hstcp.awk on synthetic streams: 32-bit counters unwrapped, bad streams rejected."""

from __future__ import annotations

import os
import subprocess
from typing import Any

import pytest

from conftest import REPO

AWK = REPO / "awk" / "hstcp" / "hstcp.awk"
# The parser @includes awk/lib/ (metrics.awk, integrity.awk), as the pipeline runs it.
ENV = {**os.environ, "LC_ALL": "C", "AWKPATH": str(REPO / "awk" / "lib")}
W = 2**32


def q_line(
    t: float,
    arr: int,
    dep: int,
    drop: int,
    barr: int,
    bdep: int,
    qlen: int,
    integ: float,
    flows: list[str],
) -> str:
    """A Q sample line; counters are given unwrapped and printed as signed 32-bit values."""

    def s32(v: int) -> int:
        v %= W
        return v - W if v >= 2**31 else v

    head = f"Q {t} {s32(arr)} {s32(dep)} {s32(drop)} {s32(barr)} {s32(bdep)} {qlen} {integ}"
    return " ".join([head, *flows])


def parse(stream: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    args = {"t0": 1, "t1": 3, "t_end": 3, "from": 0, "to": 1, "bps": 8e9, "pkt": 1000, **kw}
    cmd = ["gawk", "-f", str(AWK)]
    for k, v in args.items():
        cmd += ["-v", f"{k}={v}"]
    return subprocess.run(cmd, input=stream, capture_output=True, text=True, check=False, env=ENV)


def values(proc: subprocess.CompletedProcess[str]) -> dict[str, float]:
    return {k: float(v) for k, v in (line.split("\t") for line in proc.stdout.splitlines())}


META = (
    "M capacity_bps 8e9 packet_bytes 1000 buffer_pkts 100 flows 1 t0 1 t1 3 sample_s 1 "
    "level counters"
)


def synthetic(start: int = 1_000_000_000, rate: int = 900_000_000, drops: int = 0) -> list[str]:
    """A run at 8 Gb/s whose signed 32-bit byte counter wraps (passes 2^31) inside the window."""
    lines = [META]
    for i, t in enumerate((0, 1, 2, 3)):
        b = start + i * rate
        pk = b // 1000
        lines.append(
            q_line(
                t,
                pk + drops * i,
                pk,
                drops * i,
                b + drops * i * 1000,
                b,
                0,
                0.0,
                [f"0:{pk + drops * i}:{pk}:{drops * i}:{pk}:50"],
            )
        )
    return lines


def test_parser_unwraps_32_bit_counters() -> None:
    proc = parse("\n".join([*synthetic(), "E 3"]) + "\n")
    assert proc.returncode == 0, proc.stderr
    v = values(proc)
    # 2 x 900 MB in 2 s over 8 Gb/s: utilisation 0.9, although the raw byte counter went negative.
    assert v["link_utilisation"] == pytest.approx(0.9) and v["acct_ok"] == 1


def test_parser_rejects_a_missed_wrap() -> None:
    # 4.8e9 bytes between two samples at 8 Gb/s (1e9 B/s) cannot be: a wrap was missed.
    lines = synthetic(rate=900_000_000)
    lines[3] = q_line(2, 0, 0, 0, 0, 1_000_000_000 + 900_000_000 + W, 0, 0.0, ["0:0:0:0:0:1"])
    proc = parse("\n".join([*lines, "E 3"]) + "\n")
    assert proc.returncode == 3 and "more than the link carries" in proc.stderr


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ls: ls, "no E line"),  # truncated: the stream stops before its end marker
        (lambda ls: [*ls[:2], *ls[3:], "E 3"], "no sample at t0"),
        (lambda ls: [*ls, "d 2.5 0 1 tcp 1000 ------- 0 0.0 1.0 5 77", "E 3"], "drop lines"),
        (lambda ls: [*ls, "d 2.5 4 1 tcp 1000 ------- 0 0.0 1.0 5 77", "E 3"], "another link"),
        (lambda ls: [*ls, "- 2.5 0 1 tcp 1000 ------- 0 0.0 1.0 5 77", "E 3"], "drops-only"),
        (lambda ls: [*ls, "E 2"], "stream ends at 2"),
        (lambda ls: [ls[0].replace("t1 3", "t1 4"), *ls[1:], "E 3"], "window"),
    ],
)
def test_parser_fails_a_bad_stream(edit: Any, message: str) -> None:
    proc = parse("\n".join(edit(synthetic())) + "\n")
    assert proc.returncode == 3 and message in proc.stderr, proc.stderr


def test_parser_checks_conservation() -> None:
    lines = synthetic()
    # arrivals exceed departures + drops + queue at the end: a packet vanished
    lines[-1] = lines[-1].replace("Q 3 ", "Q 3 ").split()
    lines[-1][2] = str(int(lines[-1][2]) + 1)
    lines[-1] = " ".join(lines[-1])
    proc = parse("\n".join([*lines, "E 3"]) + "\n")
    assert proc.returncode == 3 and "arrivals" in proc.stderr


def test_parser_needs_its_parameters() -> None:
    proc = subprocess.run(
        ["gawk", "-f", str(AWK)], input="", capture_output=True, text=True, check=False, env=ENV
    )
    assert proc.returncode == 2 and "set -v" in proc.stderr


def test_queue_max_is_the_largest_sample_in_the_window() -> None:
    """queue_max_pkts: the largest sampled queue within [t0, t1] (7 packets at t = 0, before
    the window, do not count); without per-packet events no exact maximum is printed."""
    lines = [META]
    dep = 0
    for t, qlen, integ in ((0, 7, 0.0), (1, 3, 5.0), (2, 5, 9.0), (3, 2, 12.5)):
        dep += 1000
        arr = dep + qlen
        flow = f"0:{arr}:{dep}:0:{dep}:50"
        lines.append(q_line(t, arr, dep, 0, arr * 1000, dep * 1000, qlen, integ, [flow]))
    proc = parse("\n".join([*lines, "E 3"]) + "\n")
    assert proc.returncode == 0, proc.stderr
    v = values(proc)
    assert v["queue_max_pkts"] == 5
    assert v["queue_max_pkts"] >= v["queue_avg_pkts"]
    assert "ev_queue_max_pkts" not in v
