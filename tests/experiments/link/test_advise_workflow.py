"""`bufrepro advise` end to end in a copy of the repository: config file, workflow, answer, page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")
FLAGS = [
    "--rate",
    "2Mbit",
    "--rtt",
    "20ms",
    "--flows",
    "2",
    "--loss",
    "1%",
    "--queue",
    "DropTail,RED",
    "--warmup",
    "1s",
    "--measure",
    "5s",
    "--coarse",
    "4",
    "--refine",
    "2",
    "--seeds",
    "2",
    "--cores",
    "2",
]
NAME = "link-2mbit-20ms-2sack-loss1pct-droptail-red-seeds2"


@pytest.fixture(scope="module")
def advised(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    work = copy_repo(tmp_path_factory.mktemp("advise") / "repo")
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "advise", *FLAGS],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return work, proc


def test_the_answer_is_short_and_names_its_page(
    advised: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _work, proc = advised
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert len(lines) <= 25, proc.stdout
    text = proc.stdout
    for needle in (
        "base RTT 20 ms = 2 x (1 ms access + 8 ms bottleneck + 1 ms access)",
        "window_",
        "no hidden cap",
        "Rules of thumb: BDP",
        "Recommended buffer",
        "  DropTail:",
        "  RED:",
        "delay cost",
        "uncertainty: seeds 1 pick",
        f"Page: report/experiments/{NAME}.html",
        "runs made",
    ):
        assert needle in text, needle
    assert any(line.startswith("[advise]") and "runs" in line for line in lines)


def test_the_page_tables_and_config_are_kept(
    advised: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    work, _ = advised
    page = (work / "report" / "experiments" / f"{NAME}.html").read_text()
    assert page.count('<img src="data:image/png;base64,') == 3
    assert "Villamizar" in page and "Appenzeller" in page and "no published table" in page
    folder = work / "results" / "experiments" / NAME
    for table in ("answer", "runs", "rules", "recommendation"):
        assert (folder / "tables" / f"{table}.csv").is_file()
    assert not (work / "report" / "index.html").exists()  # no paper study was run or judged
    assert not list((work / "results").glob("dumbbell*"))
    config = work / "experiments" / f"{NAME}.yaml"
    assert "studies: []" in config.read_text()
    # The config file reruns through plain Snakemake: everything is current.
    again = snakemake(work, "--cores", "2", "--configfile", str(config.relative_to(work)))
    assert again.returncode == 0, again.stderr[-2000:]
    assert f"bufrepro plans: experiment {NAME}" in again.stderr
    assert "Nothing to be done" in again.stdout + again.stderr
    # And through advise --config: the same answer, no run made again.
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    rerun = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "advise", "--config", f"experiments/{NAME}.yaml"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert "Cost: 0 runs made" in rerun.stdout and "Recommended buffer" in rerun.stdout


def test_the_documented_command_as_written(tmp_path: Path) -> None:
    work = copy_repo(tmp_path / "repo")
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    documented = "--rate 10Mbit --rtt 40ms --flows 3 --loss 1% --queue DropTail,RED".split()
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "advise", *documented, "--no-run"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    # --no-run plans and prices: the runs at most, their CPU and the wall on the cores given.
    assert re.search(
        r"planned: at most 80 runs, about 16 CPU s .* s of wall on \d+ cores", proc.stdout
    )
    priced = subprocess.run(
        [
            sys.executable,
            "-m",
            "bufrepro.cli",
            "advise",
            *documented,
            "--no-run",
            "--json",
            "--cores=1",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    planned = json.loads(priced.stdout)["planned"]
    assert planned["runs"] == 80 and planned["cores"] == 1
    assert planned["wall_s"] > planned["cpu_s"]  # one core: the workflow's work on top of ns's
    written = (
        work / "experiments" / "link-10mbit-40ms-3sack-loss1pct-droptail-red.yaml"
    ).read_text()
    assert "written by: bufrepro advise " + " ".join(documented) + "\n" in written
    dry = snakemake(
        work, "-n", "--configfile", "experiments/link-10mbit-40ms-3sack-loss1pct-droptail-red.yaml"
    )
    assert dry.returncode == 0, dry.stderr[-2000:]
    assert "run_batch" in dry.stdout and "compare_published" not in dry.stdout
    assert (
        "results/experiments/link-10mbit-40ms-3sack-loss1pct-droptail-red/batches/coarse-b0000.tsv"
        in dry.stdout
    )


def test_json_is_the_answer_as_data(
    advised: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    work, first = advised
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "advise", *FLAGS, "--json"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    made = json.loads(proc.stdout)  # stdout is the JSON object and nothing else
    assert "[advise]" in proc.stderr  # the progress went to stderr
    text = (work / "results" / "experiments" / NAME / "answer.txt").read_text()
    assert text in first.stdout  # the text answer printed earlier is the one kept
    assert made["experiment"] == NAME and made["page"] == f"report/experiments/{NAME}.html"
    answer, cost = made["answer"], made["cost"]
    assert cost["runs_made"] == 0 and cost["runs_reused"] == answer["runs"]["count"] > 0
    link = answer["link"]
    assert f"Link: {link['rate_mbps']:g} Mbit/s, {link['hops']}, random loss" in text
    assert f"Flows: {link['flows']} x {link['cc']}" in text
    assert f"BDP {link['bdp_pkts']:.1f} pkts of {link['packet_bytes']} B" in text
    runs = answer["runs"]
    assert f"Runs: {runs['count']} ({runs['coarse']} coarse + {runs['refine']} refining)" in text
    for rule in answer["rules"]:
        assert f"{rule['rule']} {rule['pkts']:.0f} pkts ({rule['source']})" in text
    assert f"Recommended buffer (smallest within {100 * answer['within']:g}% of the best" in text
    assert [q["queue"] for q in answer["queues"]] == ["DropTail", "RED"]
    for q in answer["queues"]:
        b = q["buffer_pkts"]
        head = f"  {q['queue']}: {b} pkts = {q['buffer_ms']:.1f} ms = {q['buffer_bdp']:.2f} BDP"
        assert head in text, head
        assert f"utilisation {q['utilisation']:.3f}" in text
        assert f"queueing {q['qdelay_ms_mean']:.1f} ms mean, {q['qdelay_ms_p95']:.1f} p95" in text
        a_set, b_set = (",".join(map(str, s)) for s in q["seed_sets"])
        assert f"seeds {a_set} pick" in text and f"seeds {b_set} pick" in text
        for note in q["notes"]:
            assert f"    note: {note}\n" in text
