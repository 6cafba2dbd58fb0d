"""The vegas throughput series: the series.tsv of the RTT-setup runs of the series seed."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from bufrepro.kit import binding, checks
from bufrepro.pipeline import configuration
from bufrepro.studies.vegas import STUDY


def bind(where: Path) -> None:
    """A run.json binding the folder's params.json, as a finished run writes it."""
    record = {"command": "-", "exit_code": 0, "finished_at_sim_s": 0.0, "key": "0" * 64,
              "metrics_sha256": "0" * 64, "parser": "-", "parser_args": {}, "wall_s": 0.0,
              "params_sha256": binding.sha256(where / "params.json")}  # fmt: skip
    (where / "run.json").write_text(json.dumps(record))


def run_dir(root: Path, setup: str, rtt: int, seed: int, bins: list[float]) -> Path:
    """A run folder with its params.json record and a series.tsv of `bins` (kb/s per 1 s)."""
    where = root / f"{setup}{rtt}seed{seed}"
    where.mkdir(parents=True)
    record = {"study": "vegas", "setup": setup, "variant": "spacing", "packet_bytes": 512,
              "rtt_ms": rtt, "buffer": 50, "start_s": 1.0, "seed": seed}  # fmt: skip
    (where / "params.json").write_text(json.dumps({**record, "template": "-", "params": {}}))
    bind(where)
    text = "".join(f"{t:.6f} {v:.6f}\n" for t, v in enumerate(bins))
    (where / "series.tsv").write_text(text)
    return where


def test_series_of_the_rtt_runs_of_the_series_seed(tmp_path: Path) -> None:
    block = configuration.load()["vegas"]
    assert block["monitor"]["series_seed"] == 1
    dirs = [
        run_dir(tmp_path, "rtt", 120, 1, [0.0, 4.096]),
        run_dir(tmp_path, "rtt", 60, 1, [1.5, 2.5]),
        run_dir(tmp_path, "rtt", 60, 2, [9.0, 9.0]),  # not the series seed
        run_dir(tmp_path, "packet", 108, 1, [9.0, 9.0]),  # not the RTT setup
    ]
    table = STUDY.derive(block, pd.DataFrame(), dirs)["throughput_series"]
    assert list(table["rtt_ms"]) == [60, 60, 120, 120]  # sorted by the grid keys, then time
    assert list(table["throughput_kbps"]) == [1.5, 2.5, 0.0, 4.096]
    text = table.to_csv(index=False, float_format=STUDY.float_format("throughput_series"))
    assert text.splitlines()[0] == (
        "setup,variant,packet_bytes,rtt_ms,buffer,start_s,seed,time_s,throughput_kbps"
    )
    assert text.splitlines()[3] == "rtt,spacing,512,120,50,1.000000,1,0.000000,0.000000"


def test_no_series_gives_an_empty_table(tmp_path: Path) -> None:
    block = configuration.load()["vegas"]
    table = STUDY.derive(block, pd.DataFrame(), [])["throughput_series"]
    assert table.empty and "throughput_kbps" in table


def test_a_params_json_no_run_json_binds_is_refused(tmp_path: Path) -> None:
    block = configuration.load()["vegas"]
    where = run_dir(tmp_path, "rtt", 60, 1, [1.0])
    (where / "run.json").unlink()
    with pytest.raises(checks.BadRunFiles, match=r"run\.json"):
        STUDY.derive(block, pd.DataFrame(), [where])
