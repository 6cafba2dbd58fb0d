"""Redundancy inside a run (issue 42): a tally stream's metric line rewritten and resealed fails
its parser whenever another metric of the stream measures the same thing (rates against bytes
over the window, loss rates against counts, drop totals against their parts, maxima against
means and 95th percentiles, goodput against throughput). Edits of a metric with no twin stay
silent here; `bufrepro verify` catches those (test_verify.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import binding_mutations as bm
import pytest
from fault_runs import KeptRun, config, kept_run, parse

pytestmark = pytest.mark.usefixtures("ns_available")

STUDIES = ("dumbbell", "ramya")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, KeptRun]:
    cfg = config()
    where = tmp_path_factory.mktemp("tally")
    out = {}
    for study in STUDIES:
        cfg[study]["trace_level"] = "tally"
        out[study] = kept_run(cfg, study, where)
    return out


def _metrics(lines: bm.Lines) -> dict[str, str]:
    return {p[1]: p[2] for p in (x.decode().split("\t") for x in lines) if p[0] == "metric"}


def twinned_edits(m: dict[str, str]) -> dict[str, tuple[str, str]]:
    """name -> (metric, new value) for every metric that has a twin in the stream."""
    out: dict[str, tuple[str, str]] = {}
    for k, v in m.items():
        x = float(v) if v else 0.0
        p = k.rsplit("_", 2)[0]
        if k.endswith("_throughput_kbps") and f"{p}_rx_bytes" in m and x > 0:
            out[f"{k}_x1.1"] = (k, f"{x * 1.1:.6f}")
            if f"{p}_goodput_kbps" in m:
                out[f"{p}_goodput_above_throughput"] = (f"{p}_goodput_kbps", f"{x * 1.1 + 1:.6f}")
        elif k.endswith("_rx_bytes") and f"{k[:-9]}_throughput_kbps" in m and x > 0:
            out[f"{k}_x1.1"] = (k, f"{x * 1.1:.3f}")
        elif k.endswith(("_drops_total", "_drops_link", "_drops_queue")):
            q = k.rsplit("_", 2)[0]
            if all(f"{q}_drops_{s}" in m for s in ("total", "link", "queue")):
                out[f"{k}_plus_1"] = (k, str(int(x) + 1))
        elif k.endswith("_loss_rate") and float(m.get(f"{k[:-10]}_sent_pkts", 0)) > 0:
            if f"{k[:-10]}_drops_total" in m and f"{k[:-10]}_lost_pkts" not in m:
                out[f"{k}_plus_0.01"] = (k, f"{x + 0.01:.6f}")
        elif k.endswith("_max") and float(m.get(f"{k[:-4]}_mean") or 0) > 0:
            out[f"{k}_below_mean"] = (k, f"{float(m[k[:-4] + '_mean']) / 2:.6f}")
    if float(m.get("link_queue_avg_pkts") or 0) > 0:
        out["link_queue_max_below_avg"] = ("link_queue_max_pkts", "0")
    return out


def _set(lines: bm.Lines, name: str, value: str) -> bm.Lines:
    out = [
        b"metric\t%s\t%s" % (name.encode(), value.encode())
        if x.startswith(b"metric\t%s\t" % name.encode())
        else x
        for x in lines
    ]
    assert out != lines, name
    return bm.reseal(out)


def _parse(run: KeptRun, name: str, lines: bm.Lines) -> subprocess.CompletedProcess[bytes]:
    path = run.spec.run_dir / name
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    try:
        return parse(run.spec, [path])
    finally:
        path.unlink()


@pytest.mark.parametrize("study", STUDIES)
def test_every_edit_of_a_twinned_metric_is_loud(runs: dict[str, KeptRun], study: str) -> None:
    run = runs[study]
    lines = (run.spec.run_dir / run.spec.stream).read_bytes().split(b"\n")[:-1]
    assert _parse(run, "original.tr", lines).returncode == 0
    edits = twinned_edits(_metrics(lines))
    assert len(edits) >= 20, sorted(edits)
    quiet = []
    for name, (metric, value) in sorted(edits.items()):
        proc = _parse(run, f"fault-{name}.tr", _set(lines, metric, value))
        err = proc.stderr.decode(errors="replace")
        if proc.returncode == 0 or proc.stdout or metric not in err:
            quiet.append(f"{name}: exit {proc.returncode} {err[:200]}")
    assert not quiet, f"{len(quiet)} of {len(edits)} quiet:\n" + "\n".join(quiet)


@pytest.fixture(scope="module")
def ramya_text(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> KeptRun:
    from fault_runs import kept_runs

    return kept_runs(tmp_path_factory.mktemp("text"))["ramya"]


@pytest.mark.parametrize("value", ["1000", "500", "99", "13"])
def test_a_queue_sample_above_the_traces_queue_is_refused(ramya_text: KeptRun, value: str) -> None:
    """queue.tr (ramya's queue monitor) against the trace's own queue: a resealed sample above
    the largest queue the trace shows (buffer 10) is refused with the run's metrics."""
    from bufrepro.kit import checks

    run = ramya_text.spec
    side = [run.run_dir / f for f in run.side_files]
    queue = next(p for p in side if "queue" in p.name)
    lines = queue.read_bytes().split(b"\n")[:-1]
    i = len(lines) // 2
    t = lines[i].split()[0]
    lines = bm.reseal([*lines[:i], t + b" " + value.encode(), *lines[i + 1 :]])
    edited = run.run_dir / "fault-queue.tr"
    edited.write_bytes(b"".join(x + b"\n" for x in lines))
    try:
        out = parse(run, [edited if p == queue else p for p in side], run.side_parser)
    finally:
        edited.unlink()
    assert out.returncode == 0, out.stderr.decode()[:400]  # the side files alone cannot tell
    main = parse(run, [run.run_dir / run.stream])
    text = (main.stdout + out.stdout).decode()
    values = checks.parse_metrics(text, "metrics")
    problems = checks.metric_problems(values, None)
    assert any("qmon_queue_max_pkts" in p and "trace's own queue" in p for p in problems), problems
