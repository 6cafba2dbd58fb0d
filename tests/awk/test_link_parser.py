"""awk/link/link.awk on tiny hand-made bottleneck traces carrying the classic pitfalls."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "LC_ALL": "C", "AWKPATH": str(REPO / "awk" / "lib")}
FP = "bufrepro experiments/t run=0 seed=1 end=10"
# 1 Mbit/s: a 1000 B packet takes 8 ms on the wire. Window [1, 9] s, flows 1 and 2.
ARGS = {
    "t0": 1,
    "t1": 9,
    "fingerprint": FP,
    "link_from": 0,
    "link_to": 1,
    "link_bps": 1e6,
    "flows": 2,
    "mss": 960,
    "limit": 5,
    "epoch": 0.1,
}


def ev(e: str, t: float, fid: int, seq: int, uid: int, size: int = 1000) -> str:
    return f"{e} {t} 0 1 tcp {size} ------- {fid} 3.0 2.0 {seq} {uid}"


def parse(lines: list[str], **over: object) -> tuple[int, dict[str, str], str]:
    args = {**ARGS, **over}
    cmd = ["gawk", "-f", str(REPO / "awk" / "link" / "link.awk")]
    for k, v in args.items():
        cmd += ["-v", f"{k}={v}"]
    proc = subprocess.run(
        cmd,
        input="".join(f"{x}\n" for x in lines),
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    out = dict(line.split("\t") for line in proc.stdout.splitlines())
    return proc.returncode, out, proc.stderr


def packet(t: float, fid: int, seq: int, uid: int, wait: float = 0.0) -> list[str]:
    """Enqueued at t, dequeued after `wait`, received 8 ms (transmission) + 10 ms later."""
    return [
        ev("+", t, fid, seq, uid),
        ev("-", t + wait, fid, seq, uid),
        ev("r", round(t + wait + 0.018, 6), fid, seq, uid),
    ]


def tail() -> list[str]:
    """A CBR packet (flow 3, no long-lived flow) near the run's end: a real trace reaches t1
    less the path's longest transit (link.awk checks it; 0.172 s here)."""
    return packet(8.95, 3, 0, 99)


def test_rates_delays_and_the_loss_split() -> None:
    lines = [f"# {FP}"]
    lines += packet(2.0, 1, 0, 1, wait=0.004)
    lines += packet(3.0, 1, 0, 2, wait=0.002)  # a retransmission of seq 0: not goodput again
    lines += packet(4.0, 2, 0, 3)
    lines += [ev("d", 5.0, 1, 1, 4)]  # lost on the link: no "+" (the error model is at its head)
    lines += [ev("+", 6.0, 2, 1, 5), ev("d", 6.0, 2, 1, 5)]  # dropped by the queue
    lines += packet(0.5, 1, 9, 6)  # before the window: not counted
    lines += tail()
    lines.sort(
        key=lambda x: (x.startswith("#") is False, float(x.split()[1]) if x[0] != "#" else 0)
    )
    lines.append("# end")
    rc, m, err = parse(lines)
    assert rc == 0, err
    assert m["acct_ok"] == "1"
    assert float(m["throughput_mbps"]) == pytest.approx(4 * 8000 / 8 / 1e6)  # the tail's too
    assert float(m["flow1_tput_mbps"]) == pytest.approx(2 * 8000 / 8 / 1e6)
    assert float(m["goodput_mbps"]) == pytest.approx(2 * 960 * 8 / 8 / 1e6)
    assert m["arrivals"] == "6" and m["pkt_drops_link"] == "1" and m["pkt_drops_queue"] == "1"
    assert float(m["link_loss_rate"]) == pytest.approx(1 / 6, abs=1e-6)
    assert float(m["qdelay_ms_mean"]) == pytest.approx(1.5)  # (4 + 2 + 0 + 0) / 4 ms
    assert float(m["qdelay_ms_p99"]) == pytest.approx(4.0)
    jain = (2 + 1) ** 2 / (2 * (2**2 + 1**2))
    assert float(m["jain_index"]) == pytest.approx(jain, abs=1e-6)


def test_a_packet_on_the_window_edge_counts_in_part() -> None:
    lines = [f"# {FP}", *packet(8.996, 1, 0, 1), "# end"]  # 4 of its 8 ms fall in the window
    rc, m, err = parse(lines)
    assert rc == 0, err
    assert float(m["throughput_mbps"]) == pytest.approx(4000 / 8 / 1e6)


@pytest.mark.parametrize(
    ("lines", "why"),
    [
        ([f"# {FP}", *packet(2.0, 1, 0, 1)], "cut short"),
        (
            ["# bufrepro experiments/t run=1 seed=1 end=10", *packet(2.0, 1, 0, 1), "# end"],
            "fingerprint",
        ),
        ([f"# {FP}", ev("r", 2.0, 1, 0, 1), "# end"], "without a dequeue"),
        ([f"# {FP}", ev("-", 2.0, 1, 0, 1), "# end"], "without an enqueue"),
        ([f"# {FP}", *[ev("+", 2.0, 1, i, i) for i in range(7)], "# end"], "the queue holds"),
        ([f"# {FP}", "+ 2.0 3 4 tcp 1000 ------- 1 3.0 2.0 0 1", "# end"], "another link"),
        # stopped early: the end line is there, the events stop 3 s before t1
        ([f"# {FP}", *packet(2.0, 1, 0, 1), *packet(6.0, 1, 1, 2), "# end"], "stopped early"),
        ([f"# {FP}", *packet(2.0, 1, 0, 1), *packet(8.8, 1, 1, 2), "# end"], "stopped early"),
    ],
)
def test_broken_streams_fail(lines: list[str], why: str) -> None:
    rc, m, err = parse(lines)
    assert rc != 0 and "acct_ok" not in m and why in err, err


def _sealed(body: list[str]) -> list[str]:
    """An ns-3 stream: header, the program's '#@' line, body, '# end LINES SUM'."""
    from bufrepro.backends import streamsum

    lines = [f"# {FP}", "#@ bufrepro-ns3-link 2 ns3=3.37.0 queue=ns3::CoDelQueueDisc", *body]
    return [*lines, streamsum.end_line(x.encode() for x in lines).decode()]


def test_a_sealed_stream_measures_as_the_same_unsealed_one() -> None:
    body = packet(2.0, 1, 0, 1, wait=0.004) + packet(4.0, 2, 0, 3) + tail()
    rc, sealed, err = parse(_sealed(body), sealed=1)
    assert rc == 0, err
    rc, bare, err = parse([f"# {FP}", *body, "# end"])
    assert rc == 0, err
    assert sealed == bare


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda ls: [*ls[:-1], "# end"], "is not '# end LINES SUM'"),
        (lambda ls: ls[:-1], "no end line"),
        (lambda ls: [*ls[:2], ls[2].replace(" 1000 ", " 1001 "), *ls[3:]], "lines lost, added"),
        (lambda ls: [*ls[:2], *ls[3:]], "lines lost, added"),
        (lambda ls: [*ls, ev("+", 8.0, 1, 5, 9)], "a line after the end line"),
    ],
    ids=["bare-end", "cut", "edited", "deleted", "appended"],
)
def test_a_sealed_stream_refuses_what_its_end_line_does_not_bind(edit: Any, why: str) -> None:
    lines = edit(_sealed(packet(2.0, 1, 0, 1, wait=0.004) + packet(4.0, 2, 0, 3) + tail()))
    rc, m, err = parse(lines, sealed=1)
    assert rc != 0 and "acct_ok" not in m
    assert why in err, err


def test_loss_epochs_and_their_synchronisation() -> None:
    # Events of 0.1 s from their first loss: both flows lose at 2.05 and 2.12 (one event across
    # a slot's edge: synchronised), only flow 1 at 3.02 and at 4.01, 4.02 (one flow, once);
    # a link drop at 5.0 (no "+") is a loss too; a drop of another flow (CBR, id 3) is not.
    lines = [f"# {FP}"]
    drops = [(2.05, 1, 1), (2.12, 2, 2), (3.02, 1, 3), (4.01, 1, 4), (4.02, 1, 5)]
    for t, fid, uid in drops:
        lines += [ev("+", t, fid, uid, uid), ev("d", t, fid, uid, uid)]
    lines += [ev("d", 5.0, 2, 9, 9), ev("d", 6.0, 3, 1, 10), *tail()]
    lines.append("# end")
    rc, m, err = parse(lines)
    assert rc == 0, err
    assert m["loss_epochs"] == "4"
    # more than half of 2 flows: both; one epoch of four
    assert float(m["sync_epoch_share"]) == pytest.approx(1 / 4)
    assert float(m["sync_rate_mean"]) == pytest.approx((1 + 0.5 + 0.5 + 0.5) / 4)


def _busy() -> list[str]:
    """A busy link: one flow-1 packet every 10 ms from 0.5 s to t1 (each 8 ms on the wire)."""
    out: list[str] = []
    for k in range(850):
        out += packet(round(0.5 + k * 0.01, 6), 1, k, k + 1)
    return out


# 20 stop times before t1 - max_age (8.828 s): a run whose stop time was set early, or a cut.
STOPS = [round(1.0 + k * 0.4, 3) for k in range(20)]


def test_the_whole_busy_stream_passes() -> None:
    rc, m, err = parse([f"# {FP}", *_busy(), "# end"])
    assert rc == 0 and m["acct_ok"] == "1", err
    rc, m, err = parse(_sealed(_busy()), sealed=1)
    assert rc == 0 and m["acct_ok"] == "1", err


@pytest.mark.parametrize("sealed", [False, True], ids=["end_line_kept", "resealed"])
def test_a_stream_stopped_early_fails_with_its_end_line(sealed: bool) -> None:
    quiet = []
    for stop in STOPS:
        body = [x for x in _busy() if float(x.split()[1]) <= stop]
        lines = _sealed(body) if sealed else [f"# {FP}", *body, "# end"]
        rc, m, err = parse(lines, **({"sealed": 1} if sealed else {}))
        if rc == 0 or "acct_ok" in m or "stopped early" not in err:
            quiet.append(f"stop {stop}: rc {rc}")
    assert not quiet, f"{len(quiet)} of {len(STOPS)} quiet: {quiet}"
