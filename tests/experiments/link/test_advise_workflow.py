"""`bufrepro advise` end to end in a copy of the repository: config file, workflow, answer, page."""

from __future__ import annotations

import os
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
