"""derive(): the queue series of Fig. 3 from the kept queue.tr of the series seed's latency runs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from ramya_tiny import tiny_config

from bufrepro.kit import binding, checks
from bufrepro.studies.ramya import STUDY


def bind(where: Path) -> None:
    """A run.json binding the folder's params.json, as a finished run writes it."""
    record = {"command": "-", "exit_code": 0, "finished_at_sim_s": 0.0, "key": "0" * 64,
              "metrics_sha256": "0" * 64, "parser": "-", "parser_args": {}, "wall_s": 0.0,
              "params_sha256": binding.sha256(where / "params.json")}  # fmt: skip
    (where / "run.json").write_text(json.dumps(record))


def _run(root: Path, setup: str, buffer: int, seed: int, samples: str) -> Path:
    where = root / f"{setup}-{buffer}-{seed}"
    where.mkdir()
    record = {"study": "ramya", "setup": setup, "tcp": "Newreno", "bottleneck_mbps": 0.5,
              "rwnd_bytes": 102400, "delay_scale": 1.0, "buffer": buffer, "seed": seed}  # fmt: skip
    (where / "params.json").write_text(json.dumps(record))
    bind(where)
    (where / "queue.tr").write_text(samples)
    return where


def test_series_of_the_series_seed_latency_runs(tmp_path: Path) -> None:
    block = tiny_config()["ramya"]
    assert block["monitor"]["series_seed"] == 1
    dirs = [
        _run(tmp_path, "latency", 100, 1, "0 0\n0.10000000000000001 3\n0.30000000000000004 7\n"),
        _run(tmp_path, "latency", 10, 1, "0 0\n0.1 2\n"),
        _run(tmp_path, "latency", 10, 2, "0 0\n0.1 9\n"),  # another seed
        _run(tmp_path, "table5", 1, 1, "0 0\n0.1 1\n"),  # another setup
    ]
    table = STUDY.derive(block, pd.DataFrame(), dirs)["queue_series"]
    assert list(table.columns) == [*STUDY.grid_keys, "seed", "time_s", "queue_pkts"]
    assert list(table["buffer"]) == [10, 10, 100, 100, 100]  # sorted by the grid keys
    assert list(table["queue_pkts"]) == [0, 2, 0, 3, 7]
    text = table.to_csv(index=False, float_format=STUDY.float_format("queue_series"))
    assert text.splitlines()[-1] == "latency,Newreno,0.500000,102400,1.000000,100,1,0.300000,7"
    reverse = STUDY.derive(block, pd.DataFrame(), dirs[::-1])["queue_series"]
    assert reverse.to_csv(index=False) == table.to_csv(index=False)


def test_no_latency_runs_give_an_empty_series(tmp_path: Path) -> None:
    block = tiny_config()["ramya"]
    table = STUDY.derive(block, pd.DataFrame(), [_run(tmp_path, "table1", 10, 1, "0 0\n")])
    assert table["queue_series"].empty
    assert list(table["queue_series"].columns)[-2:] == ["time_s", "queue_pkts"]


def test_a_params_json_edited_after_the_run_is_refused(tmp_path: Path) -> None:
    block = tiny_config()["ramya"]
    where = _run(tmp_path, "latency", 10, 1, "0 0\n")
    record = json.loads((where / "params.json").read_text())
    (where / "params.json").write_text(json.dumps({**record, "buffer": 99}))
    with pytest.raises(checks.BadRunFiles, match="params_sha256"):
        STUDY.derive(block, pd.DataFrame(), [where])
