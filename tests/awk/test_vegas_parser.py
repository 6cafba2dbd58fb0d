"""awk/vegas/vegas.awk (issue #12: the vegas parse in one streamed pass) on hand-made
wired-cum-wireless traces.

The pitfalls that the tests of the old parsers (awk/mixed.awk with e2e_loss.awk, e2e_delay.awk,
e2e_throughput.awk, link.awk and e2e_ratio.awk, run by scripts/parse_vegas.sh) pin on
tests/traces/mixed_pitfalls.tr, here against the one-pass program: its whole output, byte for
byte as parse_vegas.sh wrote it (metrics in LC_ALL=C order, series file), the bottleneck's
queue, wireless lines read key by key, the accounting failures (exit 3, nothing written), the
parameter check (exit 2), and reading from stdin and from a named pipe as ns-2 writes it.

mixed_pitfalls.tr: a packet at t=0 (uid 10) with per-hop receipts (wired r at N1 and MAP, MAC
and RTR r at the MN) before its agent receipt; a wired queue drop (11) and its retransmission
(12, same sequence number); a wireless IFQ/ARP drop (13); a packet delivered and then dropped
by the sender's MAC (14: its 802.11 ACK was lost); one last seen entering N1 at 1.5 s (15:
stranded); one still on the first link at the end (16); ACKs, a CBR packet, MIP/DSDV udp
lines and an "M" line that must be ignored.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bufrepro.backends.streamsum import end_line
from conftest import REPO

PROG = REPO / "awk" / "vegas" / "vegas.awk"
LIB = REPO / "awk" / "lib"
PITFALLS = REPO / "tests" / "traces" / "mixed_pitfalls.tr"
ENV = {**os.environ, "LC_ALL": "C", "AWKPATH": str(LIB)}

# The vegas run's parameters (parse_args), on the fixture's 10 s.
PARAMS: dict[str, Any] = {
    "t0": 0, "t1": 10, "t_end": 10, "max_age": 5, "src": 0, "dst": 6, "fid": 1, "hdr": 40,
    "traced": "0-1,1-2", "link_from": 1, "link_to": 2, "link_bps": 2000000, "bin_s": 1,
}  # fmt: skip
REQUIRED = sorted(set(PARAMS) - {"traced"} | {"series"})

# parse_vegas.sh's metrics.tsv on mixed_pitfalls.tr with PARAMS, byte for byte.
EXPECTED = """\
acct_dropped\t2
acct_in_flight\t1
acct_ok\t1
acct_received\t3
acct_sent\t7
acct_stranded\t1
acct_trace_end\t10.000000
delay_per_throughput\t50.726996
link_departed_pkts\t2
link_queue_avg_pkts\t0.000000
link_queue_max_pkts\t0
link_utilisation\t0.000426
tcp_delay_ms_max\t67.000000
tcp_delay_ms_mean\t62.333333
tcp_delay_ms_p95\t67.000000
tcp_delay_samples\t3
tcp_delivered_pkts\t3
tcp_drops_after_delivery\t1
tcp_drops_total\t2
tcp_drops_wired\t1
tcp_drops_wireless\t1
tcp_efficiency_pct\t50.000000
tcp_goodput_kbps\t1.132800
tcp_loss_rate\t0.500000
tcp_lost_pkts\t3
tcp_recv_pkts\t3
tcp_retransmitted_pkts\t1
tcp_sent_pkts\t7
tcp_stranded_pkts\t1
tcp_throughput_kbps\t1.228800
"""
# Its series.tsv: uids 10 and 14 received in the first second, 12 in the second.
EXPECTED_SERIES = "0.000000 8.192000\n1.000000 4.096000\n" + "".join(
    f"{b}.000000 0.000000\n" for b in range(2, 10)
)

# A bottleneck (1 -> 2) with a queue: uids 1 and 2 enter at 2 s and 1 leaves at once (the
# queue holds 1, not 2); 3 (a retransmission of 2's sequence number: the queue is kept by uid)
# enters at 2.5 s and is dropped from the queue at once; 2 leaves at 3 s; a CBR packet is
# dropped at the link head at 3.5 s (it never entered the queue); another CBR packet waits from
# 4 to 4.2 s (every packet type counts on the link).
LINK_TRACE = """\
+ 1 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 0 1
- 1 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 0 1
+ 1 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 1 2
- 1.0003 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 1 2
+ 1 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 1 3
- 1.0006 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 1 3
r 1.002 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 0 1
r 1.003 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 1 2
r 1.004 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 1 3
+ 2 1 2 tcp 532 ------- 1 0.0.0.1 2.0.0.1 0 1
+ 2 1 2 tcp 532 ------- 1 0.0.0.1 2.0.0.1 1 2
- 2 1 2 tcp 532 ------- 1 0.0.0.1 2.0.0.1 0 1
+ 2.5 1 2 tcp 532 ------- 1 0.0.0.1 2.0.0.1 1 3
d 2.5 1 2 tcp 532 ------- 1 0.0.0.1 2.0.0.1 1 3
r -t 2.100000000 -Hs 6 -Hd 6 -Ni 6 -Nx 600.00 -Ny 300.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- \
-Ma 13a -Md 6 -Ms 4 -Mt 800 -Is 0.0 -Id 4194305.2 -It tcp -Il 512 -If 1 -Ii 1 -Iv 30 -Pn tcp -Ps 0 \
-Pa 0 -Pf 0 -Po 0
- 3 1 2 tcp 532 ------- 1 0.0.0.1 2.0.0.1 1 2
d 3.5 1 2 cbr 200 ------- 2 0.0.0.1 0.0.2.0 0 90
r -t 3.100000000 -Hs 6 -Hd 6 -Ni 6 -Nx 600.00 -Ny 300.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- \
-Ma 13a -Md 6 -Ms 4 -Mt 800 -Is 0.0 -Id 4194305.2 -It tcp -Il 512 -If 1 -Ii 2 -Iv 30 -Pn tcp -Ps 1 \
-Pa 0 -Pf 0 -Po 0
+ 4 1 2 cbr 200 ------- 2 0.0.0.1 0.0.2.0 1 91
- 4.2 1 2 cbr 200 ------- 2 0.0.0.1 0.0.2.0 1 91
s -t 9.000000000 -Hs 3 -Hd -1 -Ni 3 -Nx 250.00 -Ny 300.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- \
-Ma 0 -Md 0 -Ms 0 -Mt 0 -Is 4194304.0 -Id 2147483647.0 -It udp -Il 48 -If 0 -Ii 30 -Iv 32
"""

BROKEN = {
    "but never sent by node 0": "r -t 1.0 -Hs 6 -Hd 6 -Ni 6 -Nl AGT -Nw --- "
    "-It tcp -Il 512 -If 1 -Ii 99 -Iv 30 -Ps 9\n",
    # CN -> N1 traces '+', 'r' and 'd' (tcl/vegas): a packet last seen at its '+' never left it.
    "stranded on traced link 0-1": "+ 1 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 9 99\n",
    "stranded on traced link 1-2": "+ 1 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 9 99\n"
    "r 1.001 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 9 99\n"
    "+ 1.002 1 2 tcp 512 ------- 1 0.0.0.0 1.0.1.2 9 99\n",
    "malformed or truncated line": "+ 1 0 1 tcp 512 ------- 1 0.0.0.0\n",
}


def time_of(line: str) -> float:
    """A trace line's time (wired: $2; wireless: after -t), to keep a test trace in time order."""
    f = line.split()
    return float(f[2] if f[1] == "-t" else f[1])


def in_order(text: str) -> str:
    """The lines of a test trace in time order (stable), as ns-2 writes them."""
    return "".join(sorted(text.splitlines(keepends=True), key=time_of))


@pytest.fixture(scope="module", autouse=True)
def gawk() -> None:
    """Fail (not skip) without gawk: these tests need the real tool."""
    if shutil.which("gawk") is None:
        pytest.fail("gawk is not installed; run scripts/setup.sh")


def command(series_file: Path, source: str, **over: Any) -> list[str]:
    params = {**PARAMS, "series": series_file, **over}
    args = ["gawk", "-f", str(PROG)]
    for key, value in params.items():
        if value is not None:
            args += ["-v", f"{key}={value}"]
    return [*args, source]


def parse(
    trace: Path, tmp_path: Path, **over: Any
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Run vegas.awk on trace; return the process and the series file's path."""
    series = tmp_path / "series.tsv"
    proc = subprocess.run(
        command(series, str(trace), **over), capture_output=True, text=True, env=ENV, check=False
    )
    return proc, series


def values(out: str) -> dict[str, str]:
    return dict(line.split("\t", 1) for line in out.splitlines())


def ok(trace: Path, tmp_path: Path, **over: Any) -> dict[str, str]:
    proc, _ = parse(trace, tmp_path, **over)
    assert proc.returncode == 0, proc.stderr
    return values(proc.stdout)


def written(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# --- the output, byte for byte ------------------------------------------------------------------


def test_output_is_parse_vegas_output_byte_for_byte(tmp_path: Path) -> None:
    proc, series = parse(PITFALLS, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == EXPECTED  # already in LC_ALL=C order: no sort needed
    assert series.read_text() == EXPECTED_SERIES
    assert proc.stderr == ""


def test_window_and_bins_off_zero(tmp_path: Path) -> None:
    # From 0.5 s in 0.5 s bins: only uid 12 (sent at 1 s, received at 1.06 s) is in the window.
    proc, series = parse(PITFALLS, tmp_path, t0=0.5, bin_s=0.5)
    assert proc.returncode == 0, proc.stderr
    v = values(proc.stdout)
    assert (v["tcp_sent_pkts"], v["tcp_delivered_pkts"], v["tcp_stranded_pkts"]) == ("3", "1", "1")
    assert (v["tcp_delay_samples"], v["tcp_delay_ms_mean"]) == ("1", "60.000000")
    assert (v["tcp_throughput_kbps"], v["tcp_goodput_kbps"]) == ("0.431158", "0.397474")
    assert v["delay_per_throughput"] == "139.160122"
    assert (v["link_departed_pkts"], v["link_utilisation"]) == ("1", "0.000224")
    lines = series.read_text().splitlines()
    assert len(lines) == 19
    assert lines[:3] == ["0.500000 0.000000", "1.000000 8.192000", "1.500000 0.000000"]


# --- the pitfalls of tests/test_vegas.py ------------------------------------------------------


def test_sorts_every_packet(tmp_path: Path) -> None:
    v = ok(PITFALLS, tmp_path)
    assert v["acct_ok"] == "1"
    assert (v["tcp_sent_pkts"], v["tcp_retransmitted_pkts"], v["tcp_delivered_pkts"]) == (
        "7", "1", "3",
    )  # fmt: skip
    assert (v["tcp_drops_wired"], v["tcp_drops_wireless"], v["tcp_stranded_pkts"]) == (
        "1", "1", "1",
    )  # fmt: skip
    assert v["acct_in_flight"] == "1" and v["tcp_drops_after_delivery"] == "1"
    assert float(v["tcp_efficiency_pct"]) == pytest.approx(50.0)  # 3 of 6; in flight excluded
    a = {k: int(v[f"acct_{k}"]) for k in ("sent", "received", "dropped", "in_flight", "stranded")}
    assert a["sent"] == a["received"] + a["dropped"] + a["in_flight"] + a["stranded"]


def test_delay_and_throughput_count_agent_receipts_only(tmp_path: Path) -> None:
    v = ok(PITFALLS, tmp_path)
    # (60 + 60 + 67) / 3 ms: receipt by the MN's agent minus the first enqueue at the CN.
    assert float(v["tcp_delay_ms_mean"]) == pytest.approx(187 / 3)
    assert v["tcp_delay_samples"] == "3" and float(v["tcp_delay_ms_max"]) == pytest.approx(67)
    assert v["tcp_recv_pkts"] == "3"
    assert float(v["tcp_throughput_kbps"]) == pytest.approx(3 * 512 * 8 / 10 / 1000)
    assert float(v["tcp_goodput_kbps"]) == pytest.approx(3 * 472 * 8 / 10 / 1000)


def test_delay_window_counts_by_send_time(tmp_path: Path) -> None:
    v = ok(PITFALLS, tmp_path, t0=0.5)
    assert v["tcp_delay_samples"] == "1" and float(v["tcp_delay_ms_mean"]) == pytest.approx(60)
    # From 65 ms: uid 14 (sent at 3 ms, received at 70 ms) has no delay sample but is received.
    v = ok(PITFALLS, tmp_path, t0=0.065)
    assert (v["tcp_delay_samples"], v["tcp_recv_pkts"]) == ("1", "2")
    assert v["tcp_throughput_kbps"] == "0.824560"  # 2 x 512 B over 9.935 s


# A second agent receipt of uid 10 (ignored) and a spurious retransmission of sequence number 0
# (uid 17, sent at 2 s, received at 2.06 s: throughput counts it, goodput does not).
DUPLICATES = """\
r -t 0.500000000 -Hs 6 -Hd 6 -Ni 6 -Nx 600.00 -Ny 300.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- \
-Ma 13a -Md 6 -Ms 4 -Mt 800 -Is 0.0 -Id 4194305.2 -It tcp -Il 512 -If 1 -Ii 10 -Iv 30 -Pn tcp \
-Ps 0 -Pa 0 -Pf 0 -Po 0
+ 2 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 0 17
- 2 0 1 tcp 512 ------- 1 0.0.0.0 1.0.1.2 0 17
r -t 2.060000000 -Hs 6 -Hd 6 -Ni 6 -Nx 600.00 -Ny 300.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- \
-Ma 13a -Md 6 -Ms 4 -Mt 800 -Is 0.0 -Id 4194305.2 -It tcp -Il 512 -If 1 -Ii 17 -Iv 30 -Pn tcp \
-Ps 0 -Pa 0 -Pf 0 -Po 0
"""


def test_first_receipt_counts_and_goodput_counts_a_sequence_number_once(tmp_path: Path) -> None:
    proc, series = parse(
        written(tmp_path, "dup.tr", in_order(PITFALLS.read_text() + DUPLICATES)), tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    v = values(proc.stdout)
    assert (v["tcp_sent_pkts"], v["tcp_retransmitted_pkts"], v["tcp_recv_pkts"]) == ("8", "2", "4")
    # (60 + 60 + 67 + 60) / 4 ms: uid 10's second receipt (500 ms after its send) is not a sample.
    assert (v["tcp_delay_samples"], v["tcp_delay_ms_mean"], v["tcp_delay_ms_max"]) == (
        "4", "61.750000", "67.000000",
    )  # fmt: skip
    assert v["tcp_throughput_kbps"] == "1.638400"  # 4 x 512 B over 10 s
    assert v["tcp_goodput_kbps"] == "1.132800"  # still 3 sequence numbers x 472 B
    assert series.read_text().splitlines()[:3] == [
        "0.000000 8.192000", "1.000000 4.096000", "2.000000 4.096000",
    ]  # fmt: skip


def test_wired_receipt_into_dst_is_a_receipt(tmp_path: Path) -> None:
    # With the MAP (node 2) as the receiver, uid 10's wired 'r' on 1 -> 2 at 57 ms is its receipt
    # (a second one at 0.5 s is not).
    again = "r 0.5 1 2 tcp 532 ------- 1 0.0.0.1 2.0.0.1 0 10\n"
    v = ok(written(tmp_path, "again.tr", in_order(PITFALLS.read_text() + again)), tmp_path, dst=2)
    # uid 12's 'r' on 1 -> 2 at 1.053 s (sent at 1 s) is one too: (57 + 53) / 2 ms.
    assert (v["tcp_delivered_pkts"], v["tcp_recv_pkts"], v["tcp_delay_ms_mean"]) == (
        "2", "2", "55.000000",
    )  # fmt: skip
    assert v["tcp_goodput_kbps"] == "0.787200"  # 2 x (532 - 40) B * 8 / 10 s
    assert (v["tcp_stranded_pkts"], v["tcp_drops_wireless"]) == ("1", "2")  # 12 delivered


def test_ratio_is_taken_from_the_printed_values(tmp_path: Path) -> None:
    # e2e_ratio.awk divided the two printed (6-decimal) values: 62.333333 / 1.2288 = 50.726996,
    # where the unrounded mean (187 / 3) would give 50.726997.
    v = ok(PITFALLS, tmp_path)
    assert v["delay_per_throughput"] == "50.726996"
    assert f"{187 / 3 / 1.2288:.6f}" == "50.726997"


def test_bottleneck_queue(tmp_path: Path) -> None:
    text = "".join(sorted(LINK_TRACE.splitlines(keepends=True), key=time_of))
    v = ok(written(tmp_path, "link.tr", text), tmp_path)
    # One packet queued from 2 to 3 s and one from 4 to 4.2 s, over 10 s; the instant '+'/'-'
    # and the queue drop at the instant of its '+' do not count as a longer queue; the link-head
    # drop never entered it.
    assert v["link_queue_avg_pkts"] == "0.120000" and v["link_queue_max_pkts"] == "1"
    # (2 x 532 + 200) B * 8 / (2 Mb/s * 10 s)
    assert v["link_departed_pkts"] == "3" and v["link_utilisation"] == "0.000506"
    assert (v["tcp_drops_wired"], v["tcp_delivered_pkts"], v["acct_ok"]) == ("1", "2", "1")
    assert v["tcp_retransmitted_pkts"] == "1"
    assert v["tcp_delay_ms_mean"] == "1600.000000" and v["acct_trace_end"] == "9.000000"


def test_wireless_line_laid_out_otherwise_is_read_key_by_key(tmp_path: Path) -> None:
    # uid 12's agent receipt with its keys in another order (and without the unread ones).
    lines = PITFALLS.read_text().splitlines(keepends=True)
    i = next(n for n, line in enumerate(lines) if line.startswith("r -t 1.060000000"))
    lines[i] = "r -t 1.060000000 -Ni 6 -Nl AGT -It tcp -Il 512 -If 1 -Ii 12 -Ps 1 -Hs 6 -Nw ---\n"
    proc, series = parse(written(tmp_path, "reordered.tr", "".join(lines)), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == EXPECTED and series.read_text() == EXPECTED_SERIES


# --- streaming ----------------------------------------------------------------------------------


def test_reads_stdin(tmp_path: Path) -> None:
    series = tmp_path / "series.tsv"
    proc = subprocess.run(
        command(series, "-"), input=PITFALLS.read_text(), capture_output=True, text=True,
        env=ENV, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == EXPECTED and series.read_text() == EXPECTED_SERIES


def test_reads_a_named_pipe_while_it_is_written(tmp_path: Path) -> None:
    # As ns-2 writes it: the reader starts first and gets the trace in pieces, with pauses.
    fifo = tmp_path / "out.tr"
    os.mkfifo(fifo)
    series = tmp_path / "series.tsv"
    reader = subprocess.Popen(
        command(series, str(fifo)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=ENV,
    )  # fmt: skip
    lines = PITFALLS.read_text().splitlines(keepends=True)

    def write() -> None:
        with open(fifo, "w") as pipe:
            for start in range(0, len(lines), 5):
                pipe.write("".join(lines[start : start + 5]))
                pipe.flush()
                time.sleep(0.02)

    writer = threading.Thread(target=write)
    writer.start()
    out, err = reader.communicate(timeout=60)
    writer.join(timeout=60)
    assert reader.returncode == 0, err
    assert out == EXPECTED and series.read_text() == EXPECTED_SERIES


# --- failures -----------------------------------------------------------------------------------


@pytest.mark.parametrize("why", sorted(BROKEN))
def test_fails_a_broken_trace(why: str, tmp_path: Path) -> None:
    lines = PITFALLS.read_text().splitlines(keepends=True) + BROKEN[why].splitlines(keepends=True)
    trace = written(tmp_path, "broken.tr", "".join(sorted(lines, key=time_of)))
    proc, series = parse(trace, tmp_path)
    assert proc.returncode == 3 and why in proc.stderr, proc.stderr
    assert "check(s) failed" in proc.stderr
    assert proc.stdout == "" and not series.exists()  # nothing written, as parse_vegas.sh


def test_fails_when_nothing_was_sent(tmp_path: Path) -> None:
    trace = written(tmp_path, "empty.tr", "+ 9.5 1 0 ack 40 ------- 1 1.0.1.2 0.0.0.0 0 1\n")
    proc, series = parse(trace, tmp_path, traced="0-1")
    assert proc.returncode == 3 and "no data packet of flow 1 left node 0" in proc.stderr
    assert proc.stdout == "" and not series.exists()


def test_fails_a_trace_that_ends_early(tmp_path: Path) -> None:
    proc, _ = parse(PITFALLS, tmp_path, t_end=20)
    assert proc.returncode == 3 and "before t_end - max_age" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("missing", REQUIRED)
def test_missing_parameter_fails(missing: str, tmp_path: Path) -> None:
    over: dict[str, Any] = {missing: None}
    proc, series = parse(PITFALLS, tmp_path, **over)
    assert proc.returncode == 2 and "set -v" in proc.stderr
    assert proc.stdout == "" and not series.exists()


@pytest.mark.parametrize("bad", [{"t1": 0}, {"link_bps": 0}, {"bin_s": 0}])
def test_parameter_out_of_range_fails(bad: dict[str, Any], tmp_path: Path) -> None:
    proc, _ = parse(PITFALLS, tmp_path, **bad)
    assert proc.returncode == 2 and "set -v" in proc.stderr


# --- the header ---------------------------------------------------------------------------------


def test_header_documents_fields_and_every_metric(tmp_path: Path) -> None:
    head = PROG.read_text().split("\nBEGIN", 1)[0]
    assert "Reads" in head and "$1" in head
    for name in values(EXPECTED):
        assert re.search(rf"^#.*\b{name}\b", head, re.M), f"{name} is not defined in the header"


# --- the end line -------------------------------------------------------------------------------

FP = "bufrepro vegas run=0123456789abcdef seed=1 end=10"


@pytest.mark.parametrize(
    ("end", "rule"),
    [
        (None, ""),
        ("# end\n", "is not '# end LINES SUM'"),
        ("", 'no end line "# end LINES SUM" after the last event'),
        ("# end\n# end\n", "a line after the end line"),
    ],
)
def test_the_end_line_proves_the_trace_whole(end: str | None, rule: str, tmp_path: Path) -> None:
    text = f"# {FP}\n" + PITFALLS.read_text()
    if end is None:  # the end line ns writes: "# end LINES SUM" over the header and every line
        end = end_line(text.encode().splitlines()).decode() + "\n"
    trace = written(tmp_path, "fp.tr", text + end)
    proc, _ = parse(trace, tmp_path, fingerprint=FP)
    if not rule:
        assert proc.returncode == 0 and proc.stdout == EXPECTED, proc.stderr
    else:
        assert proc.returncode == 3 and rule in proc.stderr and proc.stdout == "", proc.stderr
