"""The AWK parsers on tiny hand-made traces that cover the classic pitfalls.

pitfalls.tr: a TCP packet sent at t=0 (uid 0) with per-hop 'r' events at routers 4 and 5;
an ACK (uid 6) that is not data; a queue drop on 4->5 (uid 1: '+' then 'd'); its
retransmission with the same sequence number and a new uid (uid 2) and a spurious duplicate
(uid 3); a CBR packet dropped at the link head by the error model (uid 4: 'd' with no '+' on
4->5); and two packets still in flight when the trace ends at t=2 (uids 5 and 7).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import REPO

TRACES = Path(__file__).parent / "traces"


def run_awk(script: str, trace: str, **params: object) -> subprocess.CompletedProcess[str]:
    args = ["gawk", "-f", str(REPO / "awk" / script)]
    for key, value in params.items():
        args += ["-v", f"{key}={value}"]
    return subprocess.run([*args, str(TRACES / trace)], capture_output=True, text=True, check=False)


def metrics(script: str, trace: str = "pitfalls.tr", **params: object) -> dict[str, str]:
    proc = run_awk(script, trace, **params)
    assert proc.returncode == 0, proc.stderr
    return dict(line.split("\t", 1) for line in proc.stdout.splitlines())


@pytest.mark.usefixtures("ns_available")
class TestPitfalls:
    def test_delay_counts_only_receipt_at_destination(self) -> None:
        m = metrics("delay.awk", t0=0, t1=2)
        # uid 0 (sent at t=0): 40 ms; uids 2 and 3: 50 ms each. Per-hop 'r' at 4 and 5 ignored.
        assert m["tcp_delay_pkts"] == "3"
        assert float(m["tcp_delay_ms_mean"]) == pytest.approx(140 / 3)
        assert float(m["tcp_delay_ms_max"]) == pytest.approx(50)
        assert "ack_delay_pkts" not in m and "cbr_delay_pkts" not in m

    def test_delay_window_excludes_packets_sent_before_t0(self) -> None:
        m = metrics("delay.awk", t0=0.5, t1=2)
        assert m["tcp_delay_pkts"] == "2"

    def test_throughput_counts_retransmissions_goodput_does_not(self) -> None:
        m = metrics("throughput.awk", t0=0, t1=2, tcp_hdr=40)
        assert m["tcp_rx_pkts"] == "3"
        assert float(m["tcp_throughput_kbps"]) == pytest.approx(3 * 1040 * 8 / 2 / 1000)
        # Sequence 1 arrives twice (uids 2 and 3): goodput counts it once, without headers.
        assert float(m["tcp_goodput_kbps"]) == pytest.approx(2 * 1000 * 8 / 2 / 1000)
        assert "ack_rx_pkts" not in m

    def test_loss_separates_queue_and_error_model_drops(self) -> None:
        m = metrics("loss.awk", t0=0, t1=2)
        assert (m["tcp_sent_pkts"], m["tcp_drops_queue"], m["tcp_drops_link"]) == ("5", "1", "0")
        assert (m["cbr_sent_pkts"], m["cbr_drops_queue"], m["cbr_drops_link"]) == ("2", "0", "1")
        assert float(m["tcp_loss_rate"]) == pytest.approx(1 / 5)
        assert m["ack_drops_total"] == "0"

    def test_link_utilisation_and_queue(self) -> None:
        m = metrics("link.awk", t0=0, t1=2, **{"from": 4, "to": 5, "bps": 1_000_000})
        assert m["link_departed_pkts"] == "3"
        assert float(m["link_utilisation"]) == pytest.approx(3 * 1040 * 8 / 2e6)
        # uid 5 waits in the queue from 1.91 to the end; the drop of uid 1 lasts no time.
        assert float(m["link_queue_avg_pkts"]) == pytest.approx(0.09 / 2)
        assert m["link_queue_max_pkts"] == "1"

    def test_accounting_balances_with_packets_in_flight(self) -> None:
        m = metrics("accounting.awk", t_end=2, max_age=1)
        assert (m["acct_sent"], m["acct_received"], m["acct_dropped"], m["acct_in_flight"]) == (
            "7",
            "3",
            "2",
            "2",
        )
        assert m["acct_ok"] == "1"


@pytest.mark.usefixtures("ns_available")
@pytest.mark.parametrize(
    ("trace", "message"),
    [
        ("twice.tr", "received after it was received"),
        ("truncated.tr", "malformed or truncated line"),
        ("vanished.tr", "vanished: last seen at 0.51"),
        ("never_sent.tr", "received but never sent"),
    ],
)
def test_accounting_failures(trace: str, message: str) -> None:
    proc = run_awk("accounting.awk", trace, t_end=2, max_age=1)
    assert proc.returncode == 3
    assert message in proc.stderr
    assert "acct_ok" not in proc.stdout


def test_trace_ending_early_fails() -> None:
    proc = run_awk("accounting.awk", "pitfalls.tr", t_end=10, max_age=1)
    assert proc.returncode == 3 and "before t_end - max_age" in proc.stderr


@pytest.mark.parametrize(
    "script", ["delay.awk", "throughput.awk", "loss.awk", "link.awk", "accounting.awk"]
)
def test_missing_parameters_fail(script: str) -> None:
    proc = run_awk(script, "pitfalls.tr")
    assert proc.returncode == 2 and "set -v" in proc.stderr


def test_every_script_documents_its_fields() -> None:
    for script in (REPO / "awk").glob("*.awk"):
        head = script.read_text().split("\nBEGIN", 1)[0]
        assert "Reads" in head and "$1" in head, f"{script.name} lacks its header"
