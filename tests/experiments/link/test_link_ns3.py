"""The link experiment on ns-3 with the real program (ns3/link.cc): its command line and stream
header against golden files (BUFREPRO_UPDATE_GOLDEN=1 rewrites), and `bufrepro advise --queue
CoDel` end to end, answered from ns-3 runs with what the buffer means under an AQM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from link_helpers import config, link

from bufrepro import backends
from bufrepro.backends import streamsum
from bufrepro.backends.base import execute
from bufrepro.backends.simulators import ns3
from bufrepro.kit.experiment import run_points
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline.experiments import plan
from conftest import copy_repo

GOLDEN = Path(__file__).parent / "golden"
NAME = "ns3-header"


@pytest.fixture(scope="module")
def built() -> None:
    """The programs, built by ns3/build.sh (reused when current); fails without libns3-dev."""
    if ns3.missing():
        pytest.fail(ns3.missing())
    subprocess.run(["bash", str(REPO_ROOT / "ns3" / "build.sh")], check=True)


def _matches_golden(name: str, text: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


@pytest.mark.usefixtures("built")
def test_header_names_the_program_and_every_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One PIE run of 1.5 s with a CBR flow and random loss: the command line and the '#@' line
    are the golden ones; every argument is in the header with its value; the first line is the
    run's fingerprint and the last binds every line before it."""
    monkeypatch.chdir(tmp_path)
    block = link(
        rate="2Mbit",
        rtt="20ms",
        loss="1%",
        flows={"count": 2, "cbr": "100kbit"},
        queues=["PIE"],
        run={"warmup": "0.5s", "measure": "1s"},
    )
    block["run"] = {"warmup": "0.5s", "measure": "1s"}
    cfg = config(NAME, block)
    exp = plan.resolve(cfg, NAME)
    assert exp.block["backend"] == "auto"
    point = run_points(NAME, exp.kind, [("PIE", 9)], [1])[0]
    spec = plan.spec(exp, point)
    assert spec.scenario == "link" and spec.parser_args["sealed"] == 1
    backend = backends.get("ns3", {"backends": {"ns3": {"prefix": str(REPO_ROOT / ".ns3")}}})
    _, args = backend.scenario(spec)
    _matches_golden("ns3_link.args", args)
    stream = tmp_path / "out.tr"
    subprocess.run(backend.simulate(spec), cwd=tmp_path, check=True, capture_output=True)
    lines = stream.read_text().splitlines()
    assert lines[0] == "# " + str(spec.parser_args["fingerprint"])
    _matches_golden("ns3_link_header.txt", lines[1] + "\n")
    printed = dict(word.split("=", 1) for word in lines[1].split()[3:])
    for arg in args.splitlines():
        key, value = arg.removeprefix("--").split("=", 1)
        if key in ("experiment", "run", "end"):  # the first line's
            continue
        want = {"true": "1", "false": "0"}.get(value, value)
        assert float(printed[key]) == float(want) if want[0].isdigit() else printed[key] == want
    assert lines[-1] == streamsum.end_line(line.encode() for line in lines[:-1]).decode()
    # and its parser accepts it: the same link.awk as ns-2's runs
    assert execute(backend, spec) == "ran"
    meta = json.loads((Path(point.run_dir) / "run.json").read_text())
    assert meta["simulator"] == "ns3" and meta["simulator_version"] == "ns-3.37"


FLAGS = [
    "--rate=2Mbit",
    "--rtt=20ms",
    "--flows=2",
    "--queue=CoDel",
    "--warmup=1s",
    "--measure=4s",
    "--coarse=3",
    "--refine=1",
    "--seeds=2",
    "--cores=2",
]


@pytest.mark.usefixtures("built")
def test_advise_codel_answers_from_ns3_with_the_aqm_words(tmp_path: Path) -> None:
    """advise --queue CoDel in a copy of the repository (sharing the built programs): its runs
    are ns-3's, and the answer and page say what the buffer means under CoDel."""
    work = copy_repo(tmp_path / "repo")
    (work / ".ns3").symlink_to(REPO_ROOT / ".ns3")
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "advise", *FLAGS],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    assert len(out.splitlines()) <= 32, out  # two queues (CoDel, its DropTail baseline), notes
    for needle in (
        "(simulator ns3)",
        "SACK (ns3::TcpNewReno, SACK on)",
        "the rules size a FIFO's buffer (DropTail, RED)",
        "above CoDel's target of 5 ms",  # 2 Mbit/s: a packet takes 6 ms
        "standing queue set by: the AQM (CoDel's target 5 ms",
        "  CoDel: ",
        "buffer under CoDel = a hard limit: the AQM (target 5 ms, interval 100 ms, ECN off)",
    ):
        assert needle in out, needle
    assert "  DropTail: " in out and "DropTail on ns-3: the baseline for the AQMs" in out
    name = "link-2mbit-20ms-2sack-codel-seeds2"
    runs = list((work / "results" / "experiments" / name / "runs").rglob("run.json"))
    # CoDel and its DropTail baseline on ns-3: 3 coarse buffers on the first seed, the refining
    # buffers on both seeds, the second seed on the coarse buffers near the knee (second_set)
    chosen = json.loads((work / "results/experiments" / name / "search/refine.json").read_text())
    assert len(runs) == 2 * 3 + sum(
        2 * len(chosen["buffers"][q]) + len(chosen["second_set"][q]) for q in ("CoDel", "DropTail")
    )
    for meta in (json.loads(p.read_text()) for p in runs):
        assert meta["simulator"] == "ns3" and meta["simulator_binary"].endswith("/link")
    page = (work / "report" / "experiments" / f"{name}.html").read_text()
    assert "buffer under CoDel = a hard limit" in page
