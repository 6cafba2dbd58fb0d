"""The one-pass parsers of ns-2 wired traces (awk/dumbbell/dumbbell.awk, awk/ramya/ramya.awk, both
lib/wired.awk) and the ramya side files (awk/ramya/side.awk) on tiny hand-made inputs.

The trace assertions are tests/test_awk.py's, ported: tests/traces/pitfalls.tr has a TCP packet
sent at t=0 (uid 0) with per-hop 'r' events at routers 4 and 5; an ACK (uid 6) that is not data;
a queue drop on 4->5 (uid 1: '+' then 'd'); its retransmission with the same sequence number and
a new uid (uid 2) and a spurious duplicate (uid 3); a CBR packet dropped at the link head by the
error model (uid 4: 'd' with no '+' on 4->5); and two packets still in flight when the trace ends
at t=2 (uids 5 and 7). twice.tr, truncated.tr, vanished.tr and never_sent.tr must fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AWK = REPO / "awk"
TRACES = REPO / "tests" / "traces"
PROGRAMS = ("dumbbell/dumbbell.awk", "ramya/ramya.awk")
# The dumbbell's bottleneck 4 -> 5 at 1 Mb/s, window [0, 2] s, accounting to t=2 with max_age 1.
PARAMS: dict[str, object] = {
    "t0": 0,
    "t1": 2,
    "t_end": 2,
    "max_age": 1,
    "link_from": 4,
    "link_to": 5,
    "link_bps": 1_000_000,
}


@pytest.fixture(autouse=True, scope="module")
def _gawk() -> None:
    if shutil.which("gawk") is None:
        pytest.fail("gawk is not installed; run scripts/setup.sh (apt-get install gawk)")


def run(
    program: str, inputs: list[str], params: dict[str, object], stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """gawk -f awk/<program> -v k=v ... inputs, with AWKPATH=awk/lib (the @include files)."""
    args = ["gawk", "-f", str(AWK / program)]
    for key, value in params.items():
        args += ["-v", f"{key}={value}"]
    env = dict(os.environ, AWKPATH=str(AWK / "lib"), LC_ALL="C")
    return subprocess.run(
        [*args, *inputs], input=stdin, capture_output=True, text=True, env=env, check=False
    )


def metrics_of(proc: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines == sorted(lines, key=lambda s: s.encode()), "output not in LC_ALL=C order"
    return dict(line.split("\t", 1) for line in lines)


def trace_metrics(
    trace: str = "pitfalls.tr", program: str = PROGRAMS[0], **over: object
) -> dict[str, str]:
    return metrics_of(run(program, [str(TRACES / trace)], {**PARAMS, **over}))


# --- the pitfalls, as tests/test_awk.py pins them ------------------------------------------------


@pytest.mark.parametrize("program", PROGRAMS)
class TestPitfalls:
    def test_delay_counts_only_receipt_at_destination(self, program: str) -> None:
        m = trace_metrics(program=program)
        # uid 0 (sent at t=0): 40 ms; uids 2 and 3: 50 ms each. Per-hop 'r' at 4 and 5 ignored.
        assert m["tcp_delay_pkts"] == "3"
        assert float(m["tcp_delay_ms_mean"]) == pytest.approx(140 / 3)
        assert float(m["tcp_delay_ms_max"]) == pytest.approx(50)
        assert float(m["tcp_delay_ms_p95"]) == pytest.approx(50)
        assert "ack_delay_pkts" not in m and "cbr_delay_pkts" not in m

    def test_delay_window_excludes_packets_sent_before_t0(self, program: str) -> None:
        assert trace_metrics(program=program, t0=0.5)["tcp_delay_pkts"] == "2"
        # A packet sent exactly at t0 counts (uid 0 at t=0 with t0=0 above; here uid 2 at 1).
        assert trace_metrics(program=program, t0=1)["tcp_delay_pkts"] == "2"

    def test_throughput_counts_retransmissions_goodput_does_not(self, program: str) -> None:
        m = trace_metrics(program=program, tcp_hdr=40)
        assert m["tcp_rx_pkts"] == "3" and m["tcp_rx_bytes"] == "3120.000"
        assert float(m["tcp_throughput_kbps"]) == pytest.approx(3 * 1040 * 8 / 2 / 1000)
        # Sequence 1 arrives twice (uids 2 and 3): goodput counts it once, without headers.
        assert float(m["tcp_goodput_kbps"]) == pytest.approx(2 * 1000 * 8 / 2 / 1000)
        assert "ack_rx_pkts" not in m and "cbr_rx_pkts" not in m
        # tcp_hdr defaults to 40 (ns-2).
        assert trace_metrics(program=program)["tcp_goodput_kbps"] == m["tcp_goodput_kbps"]

    def test_loss_separates_queue_and_error_model_drops(self, program: str) -> None:
        m = trace_metrics(program=program)
        assert (m["tcp_sent_pkts"], m["tcp_drops_queue"], m["tcp_drops_link"]) == ("5", "1", "0")
        assert (m["cbr_sent_pkts"], m["cbr_drops_queue"], m["cbr_drops_link"]) == ("2", "0", "1")
        assert float(m["tcp_loss_rate"]) == pytest.approx(1 / 5)
        assert m["ack_sent_pkts"] == "1" and m["ack_drops_total"] == "0"

    def test_link_utilisation_and_queue(self, program: str) -> None:
        m = trace_metrics(program=program)
        assert m["link_departed_pkts"] == "3"
        assert float(m["link_utilisation"]) == pytest.approx(3 * 1040 * 8 / 2e6)
        # uid 5 waits in the queue from 1.91 to the end; the drop of uid 1 lasts no time.
        assert float(m["link_queue_avg_pkts"]) == pytest.approx(0.09 / 2)
        assert m["link_queue_max_pkts"] == "1"

    def test_accounting_balances_with_packets_in_flight(self, program: str) -> None:
        m = trace_metrics(program=program)
        got = (m["acct_sent"], m["acct_received"], m["acct_dropped"], m["acct_in_flight"])
        assert got == ("7", "3", "2", "2")
        assert m["acct_trace_end"] == "2.000000" and m["acct_ok"] == "1"


@pytest.mark.parametrize("program", PROGRAMS)
@pytest.mark.parametrize(
    ("trace", "message"),
    [
        ("twice.tr", "after it was received at its destination or dropped"),
        ("truncated.tr", "malformed or truncated line"),
        ("vanished.tr", "vanished: last seen at 0.51"),
        ("never_sent.tr", "but it was not yet seen (its first event must be at its source"),
    ],
)
def test_accounting_failures_print_nothing_and_exit_3(
    program: str, trace: str, message: str
) -> None:
    proc = run(program, [str(TRACES / trace)], PARAMS)
    assert proc.returncode == 3
    assert message in proc.stderr and "check(s) failed" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("program", PROGRAMS)
def test_trace_end_is_the_last_event(program: str) -> None:
    """The first 41 lines end at t=1.15 with uids 0-3 done: nothing in flight."""
    head = "".join((TRACES / "pitfalls.tr").read_text().splitlines(keepends=True)[:41])
    m = metrics_of(run(program, [], {**PARAMS, "t_end": 1.15}, stdin=head))
    assert m["acct_trace_end"] == "1.150000"
    got = (m["acct_sent"], m["acct_received"], m["acct_dropped"], m["acct_in_flight"])
    assert got == ("4", "3", "1", "0")
    proc = run(program, [], {**PARAMS, "t_end": 2.5}, stdin=head)
    assert proc.returncode == 3 and "trace ends at 1.15, before" in proc.stderr


@pytest.mark.parametrize("program", PROGRAMS)
def test_a_quiet_end_within_the_largest_event_gap_is_whole(program: str) -> None:
    """Sparse traffic (a slow CBR, idle web flows, TCP's doubling back-off) may leave the last
    max_age quiet: the first 41 lines' largest gap between events is 0.49 s, so an end 0.45 s
    after the last event is a run going quiet. Without an end line (these lines) integrity.awk
    allows one such gap, accounting.awk two; 1.05 s after the last event is cut short."""
    head = "".join((TRACES / "pitfalls.tr").read_text().splitlines(keepends=True)[:41])
    quiet = {**PARAMS, "max_age": 0.01}
    assert metrics_of(run(program, [], {**quiet, "t_end": 1.60}, stdin=head))["acct_ok"] == "1"
    proc = run(program, [], {**quiet, "t_end": 2.20}, stdin=head)
    assert proc.returncode == 3 and "before the end 2.2 s: cut short?" in proc.stderr
    assert "more than twice the trace's largest gap between events (0.49 s)" in proc.stderr


@pytest.mark.parametrize("program", PROGRAMS)
def test_trace_ending_early_fails(program: str) -> None:
    proc = run(program, [str(TRACES / "pitfalls.tr")], {**PARAMS, "t_end": 10})
    assert proc.returncode == 3 and "before t_end - max_age" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("program", PROGRAMS)
def test_empty_trace_fails(program: str) -> None:
    proc = run(program, [], PARAMS, stdin="")
    assert proc.returncode == 3 and "empty stream" in proc.stderr


def test_a_malformed_line_anywhere_fails() -> None:
    lines = (TRACES / "pitfalls.tr").read_text().splitlines(keepends=True)
    cut = "".join(lines[:20]) + lines[20][:15] + "\n" + "".join(lines[21:])
    proc = run(PROGRAMS[0], [], PARAMS, stdin=cut)
    assert proc.returncode == 3 and "line 21: malformed or truncated line" in proc.stderr


@pytest.mark.parametrize("program", PROGRAMS)
@pytest.mark.parametrize("missing", [*PARAMS, "t1<=t0"])
def test_missing_parameters_fail(program: str, missing: str) -> None:
    params = {k: v for k, v in PARAMS.items() if k != missing}
    if missing == "t1<=t0":
        params["t1"] = params["t0"]
    proc = run(program, [str(TRACES / "pitfalls.tr")], params)
    assert proc.returncode == 2 and "set -v" in proc.stderr
    assert proc.stdout == ""


# --- one pass, streamed ------------------------------------------------------------------------


def test_reads_a_named_pipe_as_it_is_written(tmp_path: Path) -> None:
    """The trace arrives through a FIFO in small pieces, as from ns-2 running: same metrics."""
    text = (TRACES / "pitfalls.tr").read_text()
    fifo = tmp_path / "out.tr"
    os.mkfifo(fifo)

    def writer() -> None:
        with fifo.open("w") as fh:
            for i in range(0, len(text), 37):
                fh.write(text[i : i + 37])
                fh.flush()

    thread = threading.Thread(target=writer)
    thread.start()
    streamed = run(PROGRAMS[0], [str(fifo)], PARAMS)
    thread.join(timeout=10)
    assert streamed.returncode == 0, streamed.stderr
    assert streamed.stdout == run(PROGRAMS[0], [str(TRACES / "pitfalls.tr")], PARAMS).stdout
    assert streamed.stdout == run(PROGRAMS[0], [], PARAMS, stdin=text).stdout


def header(path: Path) -> str:
    """The leading comment block of an AWK file."""
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines)


def test_every_file_starts_with_its_header() -> None:
    files = [*sorted((AWK / "lib").glob("*.awk")), AWK / "dumbbell" / "dumbbell.awk"]
    files.append(AWK / "dumbbell" / "dumbbell_tally.awk")
    files += sorted((AWK / "ramya").glob("*.awk"))
    assert len(files) >= 10
    for path in files:
        head = header(path)
        assert "Reads" in head, f"{path} lacks its header"
        if path.parent.name != "lib":  # the programs name the fields and the command line
            assert "$1" in head and "usage:" in head and "Exit:" in head, path


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_printed_metric_is_defined_in_the_header(program: str) -> None:
    head = header(AWK / program)
    for name in trace_metrics(program=program):
        family = name.split("_", 1)[1] if name.split("_", 1)[0] in ("tcp", "cbr", "ack") else ""
        assert name in head or f"T_{family}" in head, f"{name} undefined in {program}"


# --- ramya's side files ----------------------------------------------------------------------


RTT = (
    "0.00000  0  0  3  0  rtt_ 0.000 \n"  # the agent's initial 0: not a sample
    "0.50000  0  0  3  0  rtt_ 0.050 \n"
    "0.60000  0  0  3  0  cwnd_ 4.000 \n"  # another variable
    "1.00000  0  0  3  0  rtt_ 0.070 \n"
    "9.00000  0  0  3  0  rtt_ 0.900 \n"  # after t1
)
PING = (
    "s 0.01 0\ns 0.02 1\ns 0.03 2\ns 0.04 3\n"
    "r 0.09 0 30.0 20.0\nr 0.10 1 40.0 20.0\nr 0.11 1 99.0 99.0\n"  # a second reply to 1
    "r 0.20 3 100.0 60.0\ns 7 4\nr 7.1 4 1.0 1.0\n"  # request 2 lost; request 4 after t1
)
QUEUE = "0 0\n0.1 4\n0.2 8\n5 100\n"


def side(
    tmp_path: Path, rtt: str = RTT, ping: str = PING, queue: str = QUEUE, **over: object
) -> subprocess.CompletedProcess[str]:
    """side.awk over rtt.tr, ping.tr and queue.tr written from the given texts, window [0, 5]."""
    files = []
    for name, text in (("rtt.tr", rtt), ("ping.tr", ping), ("queue.tr", queue)):
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    return run("ramya/side.awk", files, {"t0": 0, "t1": 5, **over})


def test_side_rtt_skips_the_initial_zero_and_other_variables(tmp_path: Path) -> None:
    m = metrics_of(side(tmp_path))
    assert m["tcp_rtt_samples"] == "2"
    assert float(m["tcp_rtt_s_mean"]) == pytest.approx(0.06)
    assert (m["tcp_rtt_s_min"], m["tcp_rtt_s_p95"], m["tcp_rtt_s_max"]) == (
        "0.050000",
        "0.070000",
        "0.070000",
    )


def test_side_no_rtt_sample_fails(tmp_path: Path) -> None:
    proc = side(tmp_path, t0=2)
    assert proc.returncode == 3 and "no RTT sample" in proc.stderr and proc.stdout == ""


def test_side_ping_counts_losses_and_ignores_duplicates(tmp_path: Path) -> None:
    m = metrics_of(side(tmp_path))
    assert m["ping_sent"] == "4" and m["ping_received"] == "3"
    assert float(m["ping_loss_rate"]) == pytest.approx(0.25)
    assert float(m["ping_rtt_ms_mean"]) == pytest.approx((50 + 60 + 160) / 3)
    assert float(m["ping_fwd_ms_mean"]) == pytest.approx((30 + 40 + 100) / 3)
    assert m["ping_rtt_ms_max"] == "160.000000" and m["ping_rtt_ms_p95"] == "160.000000"


def test_side_without_ping_prints_no_ping_metric(tmp_path: Path) -> None:
    m = metrics_of(side(tmp_path, ping=""))
    assert not [k for k in m if k.startswith("ping_")]
    # Requests sent but no reply: loss 1, no RTT.
    m = metrics_of(side(tmp_path, ping="s 0.1 0\ns 0.2 1\n"))
    assert (m["ping_sent"], m["ping_received"], m["ping_loss_rate"]) == ("2", "0", "1.000000")
    assert "ping_rtt_ms_mean" not in m


def test_side_queue_samples(tmp_path: Path) -> None:
    m = metrics_of(side(tmp_path, t1=1))
    assert m["qmon_samples"] == "3" and float(m["qmon_queue_avg_pkts"]) == 4
    assert m["qmon_queue_max_pkts"] == "8"
    m = metrics_of(side(tmp_path, queue=""))
    assert m["qmon_samples"] == "0" and "qmon_queue_avg_pkts" not in m


def test_side_needs_its_parameters_and_three_files(tmp_path: Path) -> None:
    proc = side(tmp_path, t1="")
    assert proc.returncode == 2 and "set -v" in proc.stderr
    two = [str(tmp_path / "rtt.tr"), str(tmp_path / "ping.tr")]
    proc = run("ramya/side.awk", two, {"t0": 0, "t1": 5})
    assert proc.returncode == 2 and proc.stdout == ""
    missing = [*two, str(tmp_path / "absent.tr")]
    assert run("ramya/side.awk", missing, {"t0": 0, "t1": 5}).returncode != 0


# --- a drop after the wire: only on a link named in -v wire_drops (ns-3's tail error model) -----


def _dropped_after_wire(tmp_path: Path) -> str:
    """pitfalls.tr with uid 3's receipt on 4 -> 5 turned into a drop (its later hops removed)."""
    out = []
    for line in (TRACES / "pitfalls.tr").read_text().splitlines():
        f = line.split()
        if f[-1] == "3" and (f[2], f[3]) == ("5", "6"):
            continue
        if f[-1] == "3" and f[0] == "r" and (f[2], f[3]) == ("4", "5"):
            line = "d" + line[1:]
        out.append(line)
    path = tmp_path / "wire_drop.tr"
    path.write_text("\n".join(out) + "\n")
    return str(path)


@pytest.mark.parametrize("program", PROGRAMS)
def test_a_drop_after_the_wire_needs_the_link_in_wire_drops(tmp_path: Path, program: str) -> None:
    trace = _dropped_after_wire(tmp_path)
    for links in ("", "5-6"):
        proc = run(program, [trace], {**PARAMS, "wire_drops": links})
        assert proc.returncode == 3 and "packet 3: 'd' on 4-5 but it was on the wire of 4-5" in (
            proc.stderr
        ), proc.stderr
    assert run(program, [trace], {**PARAMS, "wire_drops": "4-5"}).returncode == 0
    bad = run(program, [trace], {**PARAMS, "wire_drops": "4:5"})
    assert bad.returncode == 2 and "-v wire_drops=4:5: expected a-b" in bad.stderr
