"""The generic run steps (render, simulate, stream into the parser) with a test double backend."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_backend import Fake, fake_spec

from bufrepro.backends.base import RunFailed, RunSpec, execute
from bufrepro.backends.runall import execute_all


def spec(where: Path, **params: Any) -> RunSpec:
    return fake_spec(where, **params)


def metrics(where: Path) -> dict[str, str]:
    lines = (where / "metrics.tsv").read_text().splitlines()
    return dict(line.split("\t") for line in lines)


def test_streams_the_trace_into_the_parser(tmp_path: Path) -> None:
    assert execute(Fake(), spec(tmp_path / "r")) == "ran"
    # Times 0.5, 1.0, 1.5, 2.0: three at or after t0 = 1.
    assert metrics(tmp_path / "r") == {"acct_ok": "1", "bytes": "300", "events": "3"}
    assert not (tmp_path / "r" / "out.tr").exists()  # the named pipe is gone, no trace on disk
    meta = json.loads((tmp_path / "r" / "run.json").read_text())
    assert meta["finished_at_sim_s"] == 2.0 and meta["streamed"] is True
    assert json.loads((tmp_path / "r" / "params.json").read_text())["params"]["packets"] == 4
    assert (tmp_path / "r" / "scenario.awk").is_file()


def test_a_current_run_is_not_run_again_a_changed_one_is(tmp_path: Path) -> None:
    assert execute(Fake(), spec(tmp_path / "r")) == "ran"
    assert execute(Fake(), spec(tmp_path / "r")) == "current"
    assert execute(Fake(), spec(tmp_path / "r", packets=6)) == "ran"
    assert metrics(tmp_path / "r")["events"] == "5"


def test_keep_traces_keeps_the_stream_as_a_file(tmp_path: Path) -> None:
    execute(Fake(), spec(tmp_path / "r"), keep_traces=True)
    assert (tmp_path / "r" / "out.tr").read_text().count("\n") == 4
    assert metrics(tmp_path / "r")["events"] == "3"


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"fail": 1}, "simulator exit code 3"),
        # Dies before it opens the stream: the parser waiting on the pipe must still finish.
        ({"packets": 0, "fail": 1}, "simulator exit code 3"),
        ({"quiet": 1}, "no finish marker"),
        ({"kind": "tcp x"}, "parser exit code 4"),
    ],
)
def test_a_failed_run_names_itself_and_keeps_no_metrics(
    tmp_path: Path, params: dict[str, Any], reason: str
) -> None:
    with pytest.raises(RunFailed) as err:
        execute(Fake(), spec(tmp_path / "r", **params))
    text = str(err.value)
    assert str(tmp_path / "r") in text and reason in text
    assert "reproduce with: cd " in text and "mkfifo out.tr" in text
    assert not (tmp_path / "r" / "metrics.tsv").exists()
    assert not (tmp_path / "r" / "run.json").exists()


def test_a_failed_run_after_a_good_one_removes_the_old_metrics(tmp_path: Path) -> None:
    execute(Fake(), spec(tmp_path / "r"))
    with pytest.raises(RunFailed):
        execute(Fake(), spec(tmp_path / "r", quiet=1))
    assert not (tmp_path / "r" / "metrics.tsv").exists()


def _working_in(folder: Path) -> list[str]:
    """Live processes whose working directory is inside `folder` (from /proc)."""
    out = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if str(proc.joinpath("cwd").readlink()).startswith(str(folder)):
                out.append((proc / "cmdline").read_text().replace("\0", " "))
        except OSError:
            continue
    return out


class Missing(Fake):
    """The same backend with a simulator binary that does not exist."""

    def simulate(self, spec: RunSpec) -> list[str]:
        return ["/nonexistent/bufrepro-ns"]


def test_a_missing_simulator_fails_and_leaves_no_parser_waiting(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        execute(Missing(), spec(tmp_path / "r"))
    assert _working_in(tmp_path) == []  # the parser, blocked on the pipe's open, was killed
    assert not (tmp_path / "r" / "metrics.tsv").exists()


def test_execute_all_runs_every_run_and_then_names_each_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failing run in the middle: the runs after it still run and keep their metrics; the
    error names the failed run with its reproduce command, and how many failed."""
    runs = [spec(tmp_path / "a"), spec(tmp_path / "b", fail=1), spec(tmp_path / "c", packets=6)]
    with pytest.raises(RunFailed, match=r"^1 of 3 tiny runs failed:\n") as err:
        execute_all(Fake(), runs, False, "tiny runs")
    assert str(tmp_path / "b") in str(err.value) and "reproduce with: cd " in str(err.value)
    assert metrics(tmp_path / "a")["events"] == "3" and metrics(tmp_path / "c")["events"] == "5"
    assert not (tmp_path / "b" / "metrics.tsv").exists()
    assert f"FAILED {tmp_path / 'b'}" in capsys.readouterr().out
    done = execute_all(Fake(), [runs[0], runs[2]], False, "tiny runs")
    assert [(d.spec.run_dir, d.status) for d in done] == [
        (tmp_path / "a", "current"),
        (tmp_path / "c", "current"),
    ]
    assert [line.split()[:2] for line in capsys.readouterr().out.splitlines()] == [
        ["current", str(tmp_path / "a")],
        ["current", str(tmp_path / "c")],
    ]
    # Two at a time: the same runs, in the same order, the failure named the same way.
    with pytest.raises(RunFailed, match=r"^1 of 3 tiny runs failed:\n"):
        execute_all(Fake(), runs, False, "tiny runs", threads=2)
    assert [d.spec.run_dir for d in execute_all(Fake(), runs[::2], False, "x", threads=2)] == [
        tmp_path / "a",
        tmp_path / "c",
    ]
