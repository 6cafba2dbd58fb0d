"""The two-flow runs of Figs. 5-6: their records, one job running them all, their tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml
from hstcp_tiny import defaults, run_side, side_specs, tiny

from bufrepro.studies.hstcp import STUDY, sides, twoflow

NS2 = STUDY.declarations()["ns2"]


def test_records_under_and_over_buffered() -> None:
    block = defaults()["hstcp"]
    assert sides.twoflow_bdp(block) == 7500  # 1 Gb/s x 60 ms (mean of 40 and 80 ms)
    under = sides.twoflow_params(block, "under", 1)
    over = sides.twoflow_params(block, "over", 2)
    assert under["buffer_pkts"] == 150 and over["buffer_pkts"] == 7500
    assert under["queue"] == "DropTail"
    assert [f["rtt_ms"] for f in under["flows"]] == [40, 80]
    assert under["timeseries_s"] > 0 and over["seed"] == 2
    with pytest.raises(ValueError, match="two-flow case"):
        sides.twoflow_params(block, "middle", 1)


def test_specs_cover_every_case_and_seed() -> None:
    cfg = defaults()
    specs = side_specs(cfg["hstcp"], "twoflow", Path("/x"))
    assert [str(s.run_dir) for s in specs] == [
        f"/x/results/hstcp/twoflow/{c}/seed{s}"
        for c in ("under", "over")
        for s in cfg["hstcp"]["twoflow"]["seeds"]
    ]
    assert {(s.parser, s.stream, s.kept_files) for s in specs} == {
        (NS2.parser, NS2.stream, ("timeseries.tsv",))
    }


@pytest.mark.usefixtures("ns_available")
def test_one_job_runs_them_and_writes_the_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tiny()
    cfg["hstcp"]["twoflow"]["seeds"] = [1]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(cfg))
    argv = ["--config", "config.yaml", "--runs", "r.csv", "--summary", "s.csv", "--series", "t.csv"]
    made = run_side(cfg, "twoflow")
    assert made == [str(s.run_dir) for s in side_specs(cfg["hstcp"], "twoflow")]
    assert twoflow.main(argv) == 0
    runs = pd.read_csv("r.csv")
    assert sorted(runs["case"]) == ["over", "under"] and set(runs["seed"]) == {1}
    summary = pd.read_csv("s.csv")
    assert list(summary["case"]) == ["over", "under"] and list(summary["seeds"]) == [1, 1]
    series = pd.read_csv("t.csv")
    assert list(series.columns) == ["case", "time_s", "queue_pkts", "cwnd_0", "cwnd_1"]
    under = series[series["case"] == "under"]
    assert len(under) >= 2.5 / 0.05
    buf = sides.twoflow_params(cfg["hstcp"], "under", 1)["buffer_pkts"]
    assert under["queue_pkts"].max() <= buf
    run = tmp_path / "results" / "hstcp" / "twoflow" / "under" / "seed1"
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv", "timeseries.tsv"} <= {
        p.name for p in run.iterdir()
    }
    assert not (run / NS2.stream).exists()
    # A second batch job finds every run current, and the tables are the same.
    before = Path("r.csv").read_bytes()
    assert run_side(cfg, "twoflow") == made
    manifest = Path("results/hstcp/twoflow/batches/b0000.tsv").read_text()
    assert "\tran\t" not in manifest and "\tcurrent\t" in manifest
    assert twoflow.main(argv) == 0 and Path("r.csv").read_bytes() == before


def test_summary_is_the_mean_per_case() -> None:
    runs = pd.DataFrame(
        {
            "case": ["under", "under", "over"],
            "seed": [1, 2, 1],
            "buffer_frac": [0.02, 0.02, 1.0],
            "tput_ratio_short_long": [3.0, 2.0, 1.2],
        }
    )
    s = twoflow.twoflow_summary(runs)
    assert list(s.columns) == ["case", "seeds", "tput_ratio_short_long"]
    assert s.set_index("case")["tput_ratio_short_long"].to_dict() == {"over": 1.2, "under": 2.5}
