"""Twin runs, identical but for their names: the first is simulated, the others take its metrics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_backend import Fake, fake_spec

from bufrepro.backends import reuse
from bufrepro.backends.base import RunFailed, RunSpec, execute
from bufrepro.backends.runall import execute_all


class Named(Fake):
    """The fake backend with the run's name (its fingerprint) written into the scenario."""

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        name, text = super().scenario(spec)
        return name, f"# {spec.parser_args['fingerprint']}\n{text}"


def spec(where: Path, name: str, **params: Any) -> RunSpec:
    named = {"t0": 1.0, "fingerprint": f"bufrepro fake run={name} seed=1 end=2"}
    return fake_spec(where, named, **params)


def record(where: Path) -> dict[str, Any]:
    return dict(json.loads((where / "run.json").read_text()))


def test_a_twin_takes_the_first_runs_metrics_and_says_so(tmp_path: Path) -> None:
    a, b = tmp_path / "results/fake/a", tmp_path / "results/fake/b"
    done = execute_all(Named(), [spec(a, "a"), spec(b, "b")], False, "runs")
    assert [d.status for d in done] == ["ran", "reused"]
    assert (b / "metrics.tsv").read_bytes() == (a / "metrics.tsv").read_bytes()
    meta = record(b)
    assert meta["reused_from"] == str(a) and meta["cpu_s"] == {} and meta["wall_s"] == 0.0
    assert meta["reuse_key"] == record(a)["reuse_key"] and meta["key"] != record(a)["key"]
    assert "run=b" in meta["command"] and "run=b" in (b / "scenario.awk").read_text()
    assert "reused_from" not in record(a) and record(a)["cpu_s"]
    # Its own record binds its own metrics: the next pass finds both current.
    again = execute_all(Named(), [spec(a, "a"), spec(b, "b")], False, "runs")
    assert [d.status for d in again] == ["current", "current"]


def test_runs_that_differ_in_anything_but_the_name_are_both_simulated(tmp_path: Path) -> None:
    runs = [spec(tmp_path / "results/a", "a"), spec(tmp_path / "results/b", "b", packets=6)]
    assert [d.status for d in execute_all(Named(), runs, False, "runs")] == ["ran", "ran"]


def test_another_job_finds_the_twin_through_the_index(tmp_path: Path) -> None:
    a, b = tmp_path / "results/x/a", tmp_path / "results/y/b"
    assert execute_all(Named(), [spec(a, "a")], False, "one job")[0].status == "ran"
    assert [p.name for p in (tmp_path / "results" / reuse.INDEX).rglob("*") if p.is_file()]
    assert execute_all(Named(), [spec(b, "b")], False, "another job")[0].status == "reused"
    assert record(b)["reused_from"] == str(a.resolve())


def test_an_edited_twin_is_not_taken(tmp_path: Path) -> None:
    a, b = tmp_path / "results/a", tmp_path / "results/b"
    execute_all(Named(), [spec(a, "a")], False, "one job")
    (a / "metrics.tsv").write_text("events\t99\nbytes\t300\nacct_ok\t1\n")
    assert execute_all(Named(), [spec(b, "b")], False, "another")[0].status == "ran"
    assert "reused_from" not in record(b)


def test_without_a_results_folder_twins_are_found_within_the_job_only(tmp_path: Path) -> None:
    assert reuse.index_dir(tmp_path / "a") is None
    both = [spec(tmp_path / "a", "a"), spec(tmp_path / "b", "b")]
    assert [d.status for d in execute_all(Named(), both, False, "runs")] == ["ran", "reused"]
    assert execute_all(Named(), [spec(tmp_path / "c", "c")], False, "x")[0].status == "ran"


def test_kept_traces_are_never_taken_from_a_twin(tmp_path: Path) -> None:
    both = [spec(tmp_path / "results/a", "a"), spec(tmp_path / "results/b", "b")]
    assert [d.status for d in execute_all(Named(), both, True, "runs")] == ["ran", "ran"]
    assert (tmp_path / "results/b/out.tr").is_file()


def test_a_failed_twin_fails_each_run_by_its_own_name(tmp_path: Path) -> None:
    runs = [spec(tmp_path / f"results/{n}", n, fail=1) for n in "ab"]
    with pytest.raises(RunFailed, match=r"^2 of 2 runs failed") as err:
        execute_all(Named(), runs, False, "runs", threads=2)
    assert str(tmp_path / "results/a") in str(err.value)
    assert str(tmp_path / "results/b") in str(err.value)


def test_two_at_a_time_one_of_many_twins_is_simulated(tmp_path: Path) -> None:
    runs = [spec(tmp_path / f"results/{n}", n) for n in "abcdef"]
    done = execute_all(Named(), runs, False, "runs", threads=2)
    assert sorted(d.status for d in done) == ["ran"] + ["reused"] * 5
    assert len({(d.spec.run_dir / "metrics.tsv").read_bytes() for d in done}) == 1


def test_execute_alone_does_not_look_for_twins(tmp_path: Path) -> None:
    execute(Named(), spec(tmp_path / "results/a", "a"))
    assert execute(Named(), spec(tmp_path / "results/b", "b")) == "ran"
    assert "reuse_key" not in record(tmp_path / "results/b")
