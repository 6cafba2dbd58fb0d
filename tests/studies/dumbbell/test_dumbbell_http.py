"""The dumbbell's HTTP reading with the real ns-2: PackMime web objects over FullTcp, parsed."""

from __future__ import annotations

import dataclasses
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bufrepro import backends
from bufrepro.backends.awk import PARSER_ENV, parser_command
from bufrepro.backends.base import RunSpec, execute
from bufrepro.kit import configs, tables
from bufrepro.kit.grid import RunPoint
from bufrepro.pipeline import configuration, plan
from bufrepro.studies.dumbbell import STUDY, http
from conftest import TINY, merged

pytestmark = pytest.mark.usefixtures("ns_available")


def http_cfg(dumbbell: dict[str, Any] | None = None, **http_keys: Any) -> dict[str, Any]:
    """The tiny config read as HTTP: one cell, 6 s runs, 2 s of warm-up (and `dumbbell`'s keys)."""
    over = configs.merge(
        TINY,
        {
            "dumbbell": {
                "grid": {"queue": ["DropTail"], "buffer": [5]},
                "tcp": {"application": "HTTP"},
                "http": http_keys,
                "measure": {"duration_s": 6, "warmup_s": 2},
            }
        },
    )
    return configuration.validate(merged(configs.merge(over, {"dumbbell": dumbbell or {}})))


def run(cfg: dict[str, Any], point: RunPoint, where: Path, keep: bool = False) -> Path:
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    assert execute(backends.get("ns2", cfg), spec, keep) == "ran"
    return where


def reparse(spec: RunSpec, where: Path, **args: Any) -> subprocess.CompletedProcess[str]:
    """The run's parser again on its kept stream, with some parser variables changed."""
    return subprocess.run(
        parser_command(spec.parser, {**spec.parser_args, **args}, [spec.stream]),
        cwd=where,
        capture_output=True,
        text=True,
        env={**os.environ, **PARSER_ENV},
        check=False,
    )


def test_http_run_parses_with_response_times_above_the_floor(tmp_path: Path) -> None:
    cfg = http_cfg()
    point = STUDY.runs(cfg["dumbbell"])[0]
    where = run(cfg, point, tmp_path / "a")
    row = tables.read_run(where, "ns2")
    topo = cfg["dumbbell"]["topology"]
    one_way_ms = 2 * topo["access_delay_ms"] + topo["bottleneck_delay_ms"]
    # An HTTP/1.0 object takes the handshake's round trip and the request-response round trip.
    assert row["http_objects"] > 0
    assert row["http_response_ms_mean"] >= 4 * one_way_ms
    assert row["http_response_ms_p95"] >= row["http_response_ms_mean"] * 0.5
    assert row["http_response_ms_max"] >= row["http_response_ms_p95"]
    assert row["http_requests"] == row["http_objects"] + row["http_unfinished"]
    assert row["http_data_delay_ms_mean"] > one_way_ms
    # The responses cross the 0.5 Mb/s bottleneck: their throughput, and with the CBR's, below it.
    assert 0 < row["http_throughput_kbps"] + row["cbr_throughput_kbps"] <= 500 * 1.02
    assert row["acct_ok"] == 1
    # PackMime's logs are read and removed, as the trace is.
    assert not (where / http.OBJECTS_FILE).exists() and not (where / "out.tr").exists()
    assert "new PackMimeHTTP" in (where / "sim.tcl").read_text()


def test_http_seeds_differ_and_repeat(tmp_path: Path) -> None:
    cfg = http_cfg()
    points = STUDY.runs(cfg["dumbbell"])
    one = (run(cfg, points[0], tmp_path / "a") / "metrics.tsv").read_bytes()
    again = (run(cfg, points[0], tmp_path / "b") / "metrics.tsv").read_bytes()
    other = (run(cfg, points[1], tmp_path / "c") / "metrics.tsv").read_bytes()
    assert one == again and one != other


def test_a_truncated_objects_log_fails_the_run(tmp_path: Path) -> None:
    cfg = http_cfg()
    point = STUDY.runs(cfg["dumbbell"])[0]
    where = run(cfg, point, tmp_path / "a", keep=True)
    log = where / http.OBJECTS_FILE
    lines = log.read_text().splitlines()
    log.write_text("\n".join([*lines[:-1], lines[-1].split()[0]]) + "\n")
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    # Parse the kept trace again with the damaged log: the parser names the log and its line.
    out = reparse(spec, where)
    assert out.returncode == 3
    assert f"{http.OBJECTS_FILE}: line {len(lines)}: malformed line" in out.stderr


def test_response_needs_http() -> None:
    over = configs.merge(TINY, {"dumbbell": {"compare": {"delay_definition": "response"}}})
    with pytest.raises(configs.ConfigError, match="delay_definition: response needs"):
        configuration.validate(merged(over))


def test_each_reading_has_its_parser(tiny_cfg: dict[str, Any]) -> None:
    ftp = plan.spec(tiny_cfg, STUDY.runs(tiny_cfg["dumbbell"])[0])
    cfg = http_cfg()
    web = plan.spec(cfg, STUDY.runs(cfg["dumbbell"])[0])
    # the FTP reading counts in ns by default (trace_level tally): the tally program reads it
    assert tiny_cfg["dumbbell"]["trace_level"] == "tally"
    assert ftp.parser == "dumbbell/dumbbell_tally.awk" and "objects_file" not in ftp.parser_args
    full = configuration.validate(
        merged(configs.merge(TINY, {"dumbbell": {"trace_level": "full"}}))
    )
    assert plan.spec(full, STUDY.runs(full["dumbbell"])[0]).parser == "dumbbell/dumbbell.awk"
    assert web.parser == http.TALLY_PARSER and web.parser_args["servers"] == "0,2,3"
    assert web.parser_args["tally"] == 1 and ("servers", "0,2,3") in web.params["tally_params"]
    text = http_cfg({"trace_level": "full"})
    assert plan.spec(text, STUDY.runs(text["dumbbell"])[0]).parser == http.PARSER
    assert "http_rate" not in ftp.params and web.params["http_rate"] == 5.0


def test_a_missing_objects_log_fails_the_parse(tmp_path: Path) -> None:
    cfg = http_cfg()
    point = STUDY.runs(cfg["dumbbell"])[0]
    where = run(cfg, point, tmp_path / "a", keep=True)
    (where / http.OBJECTS_FILE).unlink()
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    out = reparse(spec, where)
    assert out.returncode == 3 and f"{http.OBJECTS_FILE}: line 0: cannot be read" in out.stderr


# Both HTTP versions, both queues, with and without link loss, a tight and a loose buffer.
TALLY_CASES = [
    ({"queue": ["DropTail", "RED"], "plr": [0.0, 0.05], "buffer": [3, 50]}, {}),
    ({"queue": ["RED"], "plr": [0.05], "buffer": [5]}, {"version": "1.1", "rate_per_mbps": 20}),
]


@pytest.mark.parametrize(("grid", "http_keys"), TALLY_CASES)
def test_the_tally_gives_the_text_traces_metrics_byte_for_byte(
    tmp_path: Path, patched_ns: Path, grid: dict[str, Any], http_keys: dict[str, Any]
) -> None:
    # trace_level full (the text trace into http.awk) is the reference for the tally's stream.
    made: dict[str, dict[str, bytes]] = {}
    for level in ("full", "tally"):
        cfg = http_cfg({"trace_level": level, "grid": grid}, **http_keys)
        made[level] = {}
        for point in STUDY.runs(cfg["dumbbell"]):
            where = run(cfg, point, tmp_path / level / point.run_dir)
            made[level][point.run_dir] = (where / "metrics.tsv").read_bytes()
            assert ("WiredTally" in (where / "sim.tcl").read_text()) == (level == "tally")
    assert sorted(made["full"]) == sorted(made["tally"]) and len(made["full"]) >= 2
    for run_dir, reference in made["full"].items():
        assert b"http_data_delay_pkts" in reference and b"acct_ok\t1" in reference
        assert made["tally"][run_dir] == reference, run_dir


def test_a_tally_stream_of_other_servers_or_of_ftp_fails(tmp_path: Path, patched_ns: Path) -> None:
    cfg = http_cfg()
    point = STUDY.runs(cfg["dumbbell"])[0]
    where = run(cfg, point, tmp_path / "web", keep=True)
    spec = dataclasses.replace(plan.spec(cfg, point), run_dir=where)
    assert reparse(spec, where).returncode == 0
    other = reparse(spec, where, servers="0,2")
    assert other.returncode == 3 and "stream counted with servers 0,2,3" in other.stderr
    # An FTP run's stream has no servers parameter and none of the responses' packet metrics.
    ftp_cfg = http_cfg({"tcp": {"application": "FTP"}})
    ftp_point = STUDY.runs(ftp_cfg["dumbbell"])[0]
    ftp_dir = run(ftp_cfg, ftp_point, tmp_path / "ftp", keep=True)
    ftp = plan.spec(ftp_cfg, ftp_point)
    assert ftp.parser == "dumbbell/dumbbell_tally.awk"
    out = reparse(spec, ftp_dir)
    assert out.returncode == 3 and "parameter servers missing from the stream" in out.stderr
