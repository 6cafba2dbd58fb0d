"""The link experiment's AQMs: asked of ns-2, or of an ns-3 that is missing or cannot run the
link as given, they fail before any run, naming the key, what is allowed and what to install."""

from __future__ import annotations

from pathlib import Path

import pytest

from bufrepro import advise
from bufrepro.backends.simulators import ns3
from bufrepro.experiments.link import tables
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline.experiments import experiment_file

LINK = ["--rate", "10Mbit", "--rtt", "40ms", "--flows", "3", "--loss", "1%"]


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """advise's error for argv; it wrote no experiment file (so it ran nothing)."""
    before = set(Path("experiments").glob("*.yaml")) if Path("experiments").is_dir() else set()
    assert advise.advise([*LINK, *argv, "--name", "refused-ns3-input"]) == 2
    after = set(Path("experiments").glob("*.yaml")) if Path("experiments").is_dir() else set()
    assert after == before
    return capsys.readouterr().err


@pytest.mark.parametrize("queue", ["CoDel", "PIE", "FQ-CoDel"])
def test_an_aqm_asked_of_ns2_names_key_allowed_and_backend(
    queue: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    err = _refused(["--simulator", "ns2", "--queue", f"DropTail,{queue}"], capsys)
    assert f"--queue (config key queues): {queue} is not in backend ns2" in err, err
    assert "(allowed on ns2: DropTail, RED)" in err, err
    assert "backend ns3 has it" in err, err


def test_auto_runs_every_queue_on_ns3_when_one_needs_it() -> None:
    assert tables.backend_of({"backend": "auto", "queues": ["DropTail", "RED"]}) == "ns2"
    assert tables.backend_of({"backend": "auto", "queues": ["DropTail", "CoDel"]}) == "ns3"
    assert tables.backend_of({"backend": "ns3", "queues": ["DropTail"]}) == "ns3"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--web", "5"], "--web (config key flows.web_rate): 5; allowed on backend ns3: 0"),
        (["--cc", "reno"], "--cc (config key flows.cc): reno is not in backend ns3"),
        (
            ["--buffer-min", "1pkt"],
            "--buffer-min (config key buffers.min): 1 packets; allowed on backend ns3: at least 2",
        ),
    ],
)
def test_what_the_ns3_program_cannot_run_fails_before_any_run(
    argv: list[str],
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    err = _refused(["--queue", "CoDel", *argv], capsys)
    assert says in err, err


def test_a_missing_ns3_library_names_the_apt_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No pkg-config (nor g++) on the PATH: the real check finds no library."""
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("PATH", str(tmp_path))
    ns3.library_version.cache_clear()
    try:
        err = _refused(["--queue", "PIE"], capsys)
    finally:
        ns3.library_version.cache_clear()
    assert "config key backend): ns3 cannot run here" in err or "backend: ns3 cannot" in err, err
    assert "apt-get install -y libns3-dev" in err, err


def test_ecn_without_an_aqm_that_marks_is_refused_before_any_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--ecn with DropTail and RED (on ns-2, or on ns-3): nothing would mark; refused, naming
    the flag and the queues that mark. With CoDel it is taken, and named in the experiment."""
    monkeypatch.chdir(REPO_ROOT)
    for more in ([], ["--simulator", "ns3"]):
        err = _refused(["--ecn", *more], capsys)
        assert (
            "--ecn (config key aqm.ecn): true with queues DropTail, RED; allowed: ECN with " in err
        )
        assert "(CoDel, PIE, FQ-CoDel, on ns3)" in err, err
    block = advise.block_from_flags(advise._advise_parser().parse_args(["--ecn", *LINK]))
    assert block["aqm"] == {"ecn": True} and experiment_file.default_name(block).endswith("-ecn")


def test_bbr_asked_of_ns2_names_the_backend_that_has_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    err = _refused(["--cc", "bbr"], capsys)
    assert "--cc (config key flows.cc): bbr is not in backend ns2 (allowed on ns2: sack" in err
    assert "backend ns3 has it: ask for backend ns3 (--simulator, config key backend)" in err
