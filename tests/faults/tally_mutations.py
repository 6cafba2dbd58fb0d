"""The fault corpus for WiredTally streams (trace_level tally): damaged or foreign, as bytes."""

from __future__ import annotations

from collections.abc import Callable

from mutations import Originals, noise

from bufrepro.backends.streamsum import end_line


def split(data: bytes) -> tuple[bytes, list[bytes]]:
    """(header line, the lines between it and the end line), each with its newline."""
    lines = data.splitlines(keepends=True)
    assert lines[0].startswith(b"# bufrepro ") and lines[-1].startswith(b"# end "), lines[-1]
    return lines[0], lines[1:-1]


def reseal(header: bytes, body: list[bytes]) -> bytes:
    """A stream with a valid end line for header and body ("# end LINES SUM"): what a forger
    (or a bug) would write."""
    text = header + b"".join(body)
    return text + end_line(text.splitlines()) + b"\n"


def edited(data: bytes, edit: Callable[[list[bytes]], list[bytes]], seal: bool) -> bytes:
    """The stream with its body lines edited; resealed (end line recomputed) when `seal`."""
    header, body = split(data)
    new = edit(list(body))
    if seal:
        return reseal(header, new)
    return header + b"".join(new) + data.splitlines(keepends=True)[-1]


def set_metric(name: bytes, value: bytes) -> Callable[[list[bytes]], list[bytes]]:
    def edit(body: list[bytes]) -> list[bytes]:
        hits = [i for i, x in enumerate(body) if x.startswith(b"metric\t" + name + b"\t")]
        assert hits, name
        body[hits[0]] = b"metric\t" + name + b"\t" + value + b"\n"
        return body

    return edit


def set_param(name: bytes, value: bytes) -> Callable[[list[bytes]], list[bytes]]:
    def edit(body: list[bytes]) -> list[bytes]:
        hits = [i for i, x in enumerate(body) if x.startswith(b"param\t" + name + b"\t")]
        assert hits, name
        body[hits[0]] = b"param\t" + name + b"\t" + value + b"\n"
        return body

    return edit


def drop_kind(kind: bytes, name: bytes = b"") -> Callable[[list[bytes]], list[bytes]]:
    return lambda body: [x for x in body if not x.startswith(kind + b"\t" + name)]


def add_lines(*extra: bytes) -> Callable[[list[bytes]], list[bytes]]:
    return lambda body: [*body[:-1], *extra, body[-1]]


def metric_twice(body: list[bytes]) -> list[bytes]:
    line = next(x for x in body if x.startswith(b"metric\tlink_utilisation\t"))
    return [*body, line]


def _cut(data: bytes, frac: float) -> bytes:
    lines = data.splitlines(keepends=True)
    return b"".join(lines[: max(1, int(len(lines) * frac))])


def _digit_changed(data: bytes) -> bytes:
    """One digit of the tcp throughput changed, the end line left as ns wrote it."""
    header, body = split(data)
    i = next(k for k, x in enumerate(body) if x.startswith(b"metric\ttcp_throughput_kbps\t"))
    line = bytearray(body[i])
    at = line.index(b".") - 1
    line[at] = ord("1") if line[at] != ord("1") else ord("2")
    body[i] = bytes(line)
    return header + b"".join(body) + data.splitlines(keepends=True)[-1]


def _without_header(data: bytes) -> bytes:
    return data.split(b"\n", 1)[1]


def _header_of(donor: bytes, data: bytes) -> bytes:
    return donor.split(b"\n", 1)[0] + b"\n" + data.split(b"\n", 1)[1]


KINDS: dict[str, Callable[[Originals], bytes]] = {
    # truncated, emptied, garbage
    "end_line_missing": lambda o: o.own.rsplit(b"# end ", 1)[0],
    "cut_to_half": lambda o: _cut(o.own, 0.5),
    "cut_mid_line": lambda o: o.own[: len(o.own) // 2],
    "header_only": lambda o: o.own.split(b"\n", 1)[0] + b"\n",
    "emptied": lambda o: b"",
    "binary_file": lambda o: noise(65536, 2),
    "random_bytes_appended": lambda o: o.own + noise(300, 1),
    "nul_byte": lambda o: o.own.replace(b"metric\t", b"metric\0\t", 1),
    "crlf_endings": lambda o: o.own.replace(b"\n", b"\r\n"),
    "blank_line": lambda o: edited(o.own, add_lines(b"\n"), seal=False),
    # duplicated
    "stream_twice": lambda o: o.own + o.own,
    "body_twice": lambda o: edited(o.own, lambda b: b + b, seal=False),
    "metric_twice_resealed": lambda o: edited(o.own, metric_twice, seal=True),
    # corrupted (the end line as ns wrote it, or recomputed to pass the checksum)
    "digit_changed": lambda o: _digit_changed(o.own),
    "metric_line_lost": lambda o: edited(o.own, drop_kind(b"metric", b"tcp_rx_pkts"), False),
    "metric_nan_resealed": lambda o: edited(o.own, set_metric(b"tcp_delay_ms_mean", b"nan"), True),
    "metric_inf_resealed": lambda o: edited(o.own, set_metric(b"link_utilisation", b"inf"), True),
    "acct_ok_lost_resealed": lambda o: edited(o.own, drop_kind(b"metric", b"acct_ok"), True),
    "acct_sum_broken_resealed": lambda o: edited(o.own, set_metric(b"acct_sent", b"1"), True),
    "utilisation_above_1_resealed": lambda o: edited(
        o.own, set_metric(b"link_utilisation", b"1.500000"), True
    ),
    "ns_reported_failure_resealed": lambda o: edited(
        o.own, add_lines(b"fail\tpacket 7 vanished\n"), True
    ),
    "unknown_line_resealed": lambda o: edited(o.own, add_lines(b"bogus\tx\t1\n"), True),
    "format_line_lost_resealed": lambda o: edited(o.own, lambda b: b[1:], True),
    "end_line_not_last": lambda o: o.own + b"metric\textra\t1\n",
    # counted for another scenario (other capacity, delay, window), the stream resealed
    "other_capacity_resealed": lambda o: edited(o.own, set_param(b"link_bps", b"999"), True),
    "other_delay_resealed": lambda o: edited(o.own, set_param(b"link_delay", b"0.5"), True),
    "other_window_resealed": lambda o: edited(o.own, set_param(b"t0", b"0.25"), True),
    "param_lost_resealed": lambda o: edited(o.own, drop_kind(b"param", b"link_bps"), True),
    "foreign_link_resealed": lambda o: edited(o.own, add_lines(b"link\t14\t15\n"), True),
    "foreign_node_resealed": lambda o: edited(
        o.own, lambda b: [b"nodes\t99\n" if x.startswith(b"nodes\t") else x for x in b], True
    ),
    # foreign streams
    "other_scenario_same_study": lambda o: o.other_scenario,
    "other_study": lambda o: o.other_study,
    "same_scenario_other_seed": lambda o: o.other_seed,
    "same_scenario_other_buffer": lambda o: o.other_buffer,
    "header_missing": lambda o: _without_header(o.own),
    "header_of_another_seed": lambda o: _header_of(o.other_seed, o.own),
}
