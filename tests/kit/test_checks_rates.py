"""The rates that share the measured link: FTP runs sum TCP and CBR, HTTP runs the servers' data."""

from __future__ import annotations

from bufrepro.kit.checks import metric_problems

OK = {"acct_ok": 1.0}


def test_tcp_and_cbr_share_the_link_under_ftp() -> None:
    assert (
        metric_problems({**OK, "tcp_throughput_kbps": 30.0, "cbr_throughput_kbps": 19.0}, 5e4) == []
    )
    found = metric_problems({**OK, "tcp_throughput_kbps": 30.0, "cbr_throughput_kbps": 21.0}, 5e4)
    assert found == ["rates sharing the link sum to 51, above 50"]


def test_http_runs_sum_the_servers_data_not_the_clients_reverse_packets() -> None:
    # Measured on a default-space reading (PLR 0.01, 0.05 Mb/s): the clients' requests and ACKs
    # (tcp_*, the reverse direction) 25.9 kb/s, CBR 27.1, the servers' data 21.6: 48.7 forward.
    run = {**OK, "tcp_throughput_kbps": 25.92, "cbr_throughput_kbps": 27.12}
    assert metric_problems({**run, "http_throughput_kbps": 21.56}, 5e4) == []
    found = metric_problems({**run, "http_throughput_kbps": 23.0}, 5e4)
    assert found == ["rates sharing the link sum to 50.12, above 50"]
