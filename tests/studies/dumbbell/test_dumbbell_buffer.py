"""Real tiny dumbbell runs: the buffer means the same for DropTail and RED; sources and SYNs."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bufrepro.kit.grid import RunPoint
from bufrepro.kit.templates import environment
from bufrepro.studies.dumbbell import STUDY
from conftest import PATCHED_NS, REPO

NS2 = STUDY.declarations()["ns2"]


def largest_waiting_queue(trace: Path, link: tuple[str, str] = ("4", "5")) -> int:
    """Most packets waiting on a link at once: enqueued ('+'), not yet sent ('-') or dropped.

    ns-2 traces a '+' before the queue decides; an arrival the queue refuses is dropped at once
    (a 'd' of the same packet as the next event), so it never counts as waiting.
    """
    waiting: set[str] = set()
    largest = 0
    pending: str | None = None
    for line in trace.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):  # the run's header and the end line
            continue
        f = line.split()
        if (f[2], f[3]) != link:
            continue
        event, uid = f[0], f[11]
        if pending is not None and not (event == "d" and uid == pending):
            largest = max(largest, len(waiting))
        pending = None
        if event == "+":
            waiting.add(uid)
            pending = uid
        elif event in ("-", "d"):
            waiting.discard(uid)
    if pending is not None:
        largest = max(largest, len(waiting))
    return largest


def _trace(run_dir: Path, block: dict[str, Any], queue: str, buffer: int) -> Path:
    """Render and run one scenario (no random loss, 0.1 Mb/s) in run_dir; its trace."""
    values = (("queue", queue), ("plr", 0.0), ("bottleneck_mbps", 0.1), ("buffer", buffer))
    params = NS2.params(block, RunPoint("dumbbell", values, 1))
    text = environment(REPO / "tcl").get_template(NS2.template).render(**params)
    run_dir.mkdir()
    (run_dir / "run.tcl").write_text(text, encoding="utf-8")
    # the text trace ends with StreamSum's "# end LINES SUM": the patched build writes it
    subprocess.run([str(PATCHED_NS), "run.tcl"], cwd=run_dir, check=True, capture_output=True)
    return run_dir / "out.tr"


def _run(tmp_path: Path, block: dict[str, Any], queue: str, buffer: int) -> int:
    run_dir = tmp_path / f"{queue}_{block['topology']['buffer_counts']}"
    return largest_waiting_queue(_trace(run_dir, block, queue, buffer))


@pytest.mark.usefixtures("ns_available", "patched_ns")
@pytest.mark.parametrize(
    ("counts", "expected"),
    [("waiting", {"DropTail": 3, "RED": 3}), ("ns2_limit", {"DropTail": 2, "RED": 3})],
)
def test_buffer_3_holds_waiting_packets(
    tmp_path: Path, tiny_cfg: dict[str, Any], counts: str, expected: dict[str, int]
) -> None:
    block = copy.deepcopy(tiny_cfg["dumbbell"])
    block["topology"]["buffer_counts"] = counts
    block["trace_level"] = "full"  # the text trace: its queue events are counted here
    block["measure"]["duration_s"] = 10
    seen = {queue: _run(tmp_path, block, queue, 3) for queue in ("DropTail", "RED")}
    assert seen == expected


def test_largest_waiting_queue_ignores_refused_arrivals(tmp_path: Path) -> None:
    rows = [
        "+ 0.1 4 5 tcp 1500 ------- 0 0.0 6.0 1 11",
        "+ 0.2 4 5 tcp 1500 ------- 0 0.0 6.0 2 12",
        "d 0.2 4 5 tcp 1500 ------- 0 0.0 6.0 2 12",
        "- 0.3 4 5 tcp 1500 ------- 0 0.0 6.0 1 11",
        "+ 0.4 5 4 ack 40 ------- 0 6.0 0.0 1 13",
    ]
    trace = tmp_path / "out.tr"
    trace.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert largest_waiting_queue(trace) == 1


def _first_tcp_sizes(trace: Path) -> dict[str, int]:
    """Per TCP flow id, the size of its first packet leaving its source."""
    first: dict[str, int] = {}
    for line in trace.read_text(encoding="utf-8").splitlines():
        f = line.split()
        if f[0] == "+" and f[4] == "tcp" and f[2] == f[8].split(".")[0]:
            first.setdefault(f[7], int(f[5]))
    return first


@pytest.mark.usefixtures("ns_available", "patched_ns")
# With syn_ the first packet is a 40 B SYN; without, data (ns-2 traces seqno 0 without headers).
@pytest.mark.parametrize(("sources", "syn", "size"), [(5, True, 40), (1, False, 1460)])
def test_sources_and_syn(
    tmp_path: Path, tiny_cfg: dict[str, Any], sources: int, syn: bool, size: int
) -> None:
    block = copy.deepcopy(tiny_cfg["dumbbell"])
    block["tcp"].update(sources=sources, syn=syn)
    block["measure"]["duration_s"] = 3
    block["trace_level"] = "full"  # the text trace: its first packets are read here
    first = _first_tcp_sizes(_trace(tmp_path / "run", block, "DropTail", 10))
    assert len(first) == sources
    assert set(first.values()) == {size}
    # The bottleneck is still 4 -> 5 (ns-2 numbers nodes in creation order).
    assert any(line.split()[2:4] == ["4", "5"] for line in (tmp_path / "run/out.tr").open())
    # The parser accepts the stream: its fingerprint names the extra sources' nodes and links.
    values = (("queue", "DropTail"), ("plr", 0.0), ("bottleneck_mbps", 0.1), ("buffer", 10))
    args = NS2.parse_args(block, RunPoint("dumbbell", values, 1))
    cmd = ["gawk", "-f", str(REPO / "awk" / NS2.parser)]
    for key, value in args.items():
        cmd += ["-v", f"{key}={value}"]
    env = {"LC_ALL": "C", "AWKPATH": str(REPO / "awk" / "lib"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [*cmd, "out.tr"], cwd=tmp_path / "run", env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert "tcp_throughput_kbps" in out.stdout
