"""The ramya study: golden TCL, the grid of sweeps, its AWK parsers on hand-made logs, real ns-2
runs of tiny scenarios (frames vs packets, ping, RTT), claims on synthetic tables, the diff and
notes, and an end-to-end Snakemake run of a tiny grid."""

from __future__ import annotations

import copy
import os
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

from bufrepro import claims, config, grid, metrics, render
from bufrepro.studies import ramya
from conftest import REPO, copy_repo, merged, snakemake

GOLDEN = Path(__file__).parent / "golden"
THRESHOLDS: dict[str, float] = {
    "slight_frac": 0.05,
    "sharp_factor": 5,
    "knee_frac": 0.95,
    "optimum_low": 3,
    "optimum_high": 6,
    "drop_share_low": 0.01,
    "drop_share_high": 0.03,
    "tolerate_frac": 0.8,
    "remedy_goodput_frac": 0.95,
    "remedy_rtt_frac": 0.5,
    "fit_frac": 0.25,
    "holds_frac": 0.9,
}
READING = {"tcp": "Newreno", "bottleneck_mbps": 1.0, "rwnd_bytes": 102400, "delay_scale": 1.0}


def sweep(name: str, setup: str, buffers: list[int], **over: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": name,
        "setup": [setup],
        "tcp": ["Newreno"],
        "bottleneck_mbps": [1.0 if setup == "table5" else 0.5],
        "rwnd_bytes": [102400],
        "delay_scale": [1.0],
        "buffer": buffers,
    }
    out.update(over)
    return out


# A grid small enough for real ns-2 runs in seconds.
TINY: dict[str, Any] = {
    "studies": ["ramya"],
    "ramya": {
        "seeds": [1, 2],
        "setups": {
            "table1": {"duration_s": 5, "warmup_s": 0, "ping": False},
            "table5": {"duration_s": 5, "warmup_s": 0, "ping": False},
            "latency": {"duration_s": 5, "warmup_s": 0, "ping": True},
        },
        "grid": [
            sweep("table1", "table1", [10, 100]),
            sweep("table5", "table5", [1, 12]),
            sweep("ping", "latency", [10, 100]),
            sweep("rwnd", "latency", [100], rwnd_bytes=[4096, 102400]),
        ],
        "readings": {
            "table1": {"setup": "table1", **READING, "bottleneck_mbps": 0.5},
            "table5": {"setup": "table5", **READING},
        },
        "monitor": {"max_in_flight_age_s": 4},
    },
}


@pytest.fixture
def tiny_cfg() -> dict[str, Any]:
    return config.validate(merged(TINY))


def point(cfg: dict[str, Any], setup: str, buffer: int, seed: int, **match: Any) -> grid.RunPoint:
    return next(
        p
        for p in grid.expand(cfg, "ramya")
        if p.get("setup") == setup
        and p.get("buffer") == buffer
        and p.seed == seed
        and all(p.get(k) == v for k, v in match.items())
    )


# --- config, grid, rendering ------------------------------------------------------------------


def test_default_config_valid_and_sweeps_union(tiny_cfg: dict[str, Any]) -> None:
    full = config.load_defaults()["ramya"]
    pts = ramya.points(full)
    assert len(pts) == len(set(pts))
    # latency/Newreno/0.5/102400/x1/500 is in both the ping and the rwnd sweep: it runs once.
    assert pts.count(("latency", "Newreno", 0.5, 102400, 1.0, 500)) == 1
    runs = grid.expand(tiny_cfg, "ramya")
    assert len(runs) == 2 * (2 + 2 + 2 + 1)
    assert runs[0].run_dir == "results/ramya/runs/table1/Newreno/bw0.5/rwnd102400/d1/buf10/seed1"


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"setups": {"table5": {"duration_s": 5, "warmup_s": 5, "ping": False}}}, "warmup_s: 5"),
        ({"monitor": {"series_seed": 9}}, "series_seed: 9 is not one of"),
        ({"grid": [sweep("a", "table5", [1]), sweep("a", "table5", [2])]}, "must be unique"),
        ({"grid": [sweep("a", "table5", [0])]}, "ramya.grid[0].buffer[0]"),
        ({"topology": {"buffer_counts": "bytes"}}, "['waiting', 'total']"),
    ],
)
def test_bad_config_rejected(override: dict[str, Any], message: str) -> None:
    cfg = merged(TINY)
    cfg["ramya"] = config.merge(cfg["ramya"], override)
    with pytest.raises(config.ConfigError) as err:
        config.validate(cfg)
    assert message in str(err.value)


def test_every_unstated_key_has_a_reason() -> None:
    cfg = copy.deepcopy(merged({}))
    del cfg["ramya"]["assumptions"]["topology.buffer_counts"]
    with pytest.raises(config.ConfigError, match=r"'topology\.buffer_counts'"):
        config.validate(cfg)


@pytest.mark.parametrize(("setup", "buffer", "seed"), [("table5", 1, 1), ("latency", 100, 2)])
def test_rendered_tcl_matches_golden(
    tiny_cfg: dict[str, Any], setup: str, buffer: int, seed: int
) -> None:
    text = render.render("ramya", render.run_params(tiny_cfg, point(tiny_cfg, setup, buffer, seed)))
    golden = GOLDEN / f"ramya_{setup}_buf{buffer}_seed{seed}.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )


def test_frames_map_to_ns2_queue_limit(tiny_cfg: dict[str, Any]) -> None:
    block = tiny_cfg["ramya"]
    assert ramya.queue_limit(block, 1) == 2
    total = config.merge(block, {"topology": {"buffer_counts": "total"}})
    assert ramya.queue_limit(total, 1) == 1
    p = render.run_params(tiny_cfg, point(tiny_cfg, "table5", 12, 1))
    assert p["queue_limit"] == 13 and p["window_pkts"] == 102400 // 536
    assert not p["ping_on"]
    assert render.run_params(tiny_cfg, point(tiny_cfg, "latency", 10, 1))["ping_on"]


# --- AWK ----------------------------------------------------------------------------------------


def awk(
    script: str, text: str, tmp_path: Path, **params: object
) -> subprocess.CompletedProcess[str]:
    log = tmp_path / "in.log"
    log.write_text(text)
    args = ["gawk", "-f", str(REPO / "awk" / script)]
    for key, value in params.items():
        args += ["-v", f"{key}={value}"]
    return subprocess.run([*args, str(log)], capture_output=True, text=True, check=False)


def parsed(proc: subprocess.CompletedProcess[str]) -> dict[str, float]:
    assert proc.returncode == 0, proc.stderr
    return {k: float(v) for k, v in (line.split("\t") for line in proc.stdout.splitlines())}


@pytest.mark.usefixtures("ns_available")
def test_rtt_awk_skips_the_initial_zero_and_other_variables(tmp_path: Path) -> None:
    log = (
        "0.00000  0  0  3  0  rtt_ 0.000 \n"
        "0.50000  0  0  3  0  rtt_ 0.050 \n"
        "0.60000  0  0  3  0  cwnd_ 4.000 \n"
        "1.00000  0  0  3  0  rtt_ 0.070 \n"
        "9.00000  0  0  3  0  rtt_ 0.900 \n"
    )
    m = parsed(awk("rtt.awk", log, tmp_path, t0=0, t1=5))
    assert m["tcp_rtt_samples"] == 2
    assert m["tcp_rtt_s_mean"] == pytest.approx(0.06)
    assert m["tcp_rtt_s_min"] == 0.05 and m["tcp_rtt_s_max"] == 0.07
    assert awk("rtt.awk", log, tmp_path, t0=2, t1=5).returncode == 3  # no sample: an error


@pytest.mark.usefixtures("ns_available")
def test_ping_awk_counts_losses_and_ignores_duplicates(tmp_path: Path) -> None:
    log = (
        "s 0.01 0\ns 0.02 1\ns 0.03 2\ns 0.04 3\n"
        "r 0.09 0 30.0 20.0\nr 0.10 1 40.0 20.0\nr 0.11 1 99.0 99.0\n"
        "r 0.20 3 100.0 60.0\n"
    )
    m = parsed(awk("ping.awk", log, tmp_path, t0=0, t1=1))
    assert m["ping_sent"] == 4 and m["ping_received"] == 3
    assert m["ping_loss_rate"] == pytest.approx(0.25)
    assert m["ping_rtt_ms_mean"] == pytest.approx((50 + 60 + 160) / 3)
    assert m["ping_fwd_ms_mean"] == pytest.approx((30 + 40 + 100) / 3)
    assert m["ping_rtt_ms_max"] == 160
    assert awk("ping.awk", "", tmp_path, t0=0, t1=1).stdout == ""  # no ping: no metrics


@pytest.mark.usefixtures("ns_available")
def test_queue_samples_awk(tmp_path: Path) -> None:
    m = parsed(awk("queue_samples.awk", "0 0\n0.1 4\n0.2 8\n5 100\n", tmp_path, t0=0, t1=1))
    assert m["qmon_samples"] == 3 and m["qmon_queue_avg_pkts"] == 4
    assert m["qmon_queue_max_pkts"] == 8


# --- real ns-2 ----------------------------------------------------------------------------------


def simulate(cfg: dict[str, Any], p: grid.RunPoint, where: Path) -> Path:
    """Render, run ns-2 and parse one ramya run in `where`; return the folder."""
    where.mkdir(parents=True, exist_ok=True)
    render.write_run_inputs(render.run_record(cfg, p), where / "sim.tcl", where / "params.json")
    run = subprocess.run(
        ["bash", str(REPO / "scripts" / "run_ns2.sh"), "ns", str(where / "sim.tcl"),
         str(where / "out.tr"), str(where / "run.json")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    a = ramya.parse_args(cfg["ramya"], p)
    parse = subprocess.run(
        ["bash", str(REPO / "scripts" / "parse_ramya.sh"), str(REPO / "awk"),
         *(str(where / f) for f in ("out.tr", "rtt.tr", "ping.tr", "queue.tr", "metrics.tsv")),
         *(str(a[k]) for k in ("t0", "t1", "t_end", "max_age", "link_from", "link_to",
                               "link_bps"))],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert parse.returncode == 0, parse.stdout + parse.stderr
    return where


@pytest.mark.usefixtures("ns_available")
def test_one_frame_buffer_run_is_physical(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    row = metrics.read_run(simulate(tiny_cfg, point(tiny_cfg, "table5", 1, 1), tmp_path / "a"))
    assert 0 < row["tcp_throughput_kbps"] <= 1000 * 1.001  # B2 = 1 Mb/s
    assert row["tcp_goodput_kbps"] < row["tcp_throughput_kbps"]  # 536 of 576 B are payload
    assert row["tcp_drops_queue"] > 0  # one frame of buffer overflows
    assert row["link_queue_max_pkts"] == 1  # at most one frame waits (ns-2 limit 2)
    # The RTT sample is never below the propagation RTT 2 x (2 + 20 + 2) ms.
    assert row["tcp_rtt_s_min"] >= 0.048 and row["tcp_rtt_samples"] > 10
    assert "ping_rtt_ms_mean" not in row  # no ping in table5


@pytest.mark.usefixtures("ns_available")
def test_ns2_queue_limit_counts_the_packet_on_the_wire(
    tiny_cfg: dict[str, Any], tmp_path: Path
) -> None:
    # buffer_counts total: 1 frame -> ns-2 limit 1, and ns-2's DropTail then drops every packet.
    cfg = copy.deepcopy(tiny_cfg)
    cfg["ramya"]["topology"]["buffer_counts"] = "total"
    where = tmp_path / "total"
    where.mkdir()
    p = point(cfg, "table5", 1, 1)
    render.write_run_inputs(render.run_record(cfg, p), where / "sim.tcl", where / "params.json")
    subprocess.run(["ns", "sim.tcl"], cwd=where, capture_output=True, check=True)
    lines = (where / "out.tr").read_text().splitlines()
    assert any(line.startswith("d ") and " 1 2 tcp " in line for line in lines)
    assert not any(line.startswith("r ") and " 1 2 tcp " in line for line in lines)


@pytest.mark.usefixtures("ns_available")
def test_ping_through_a_large_buffer(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    small = metrics.read_run(simulate(tiny_cfg, point(tiny_cfg, "latency", 10, 1), tmp_path / "s"))
    large = metrics.read_run(
        simulate(tiny_cfg, point(tiny_cfg, "latency", 100, 1, rwnd_bytes=102400), tmp_path / "l")
    )
    assert small["ping_sent"] == pytest.approx(500, abs=2)  # every 10 ms for 5 s
    assert small["ping_rtt_ms_mean"] >= 48  # at least the propagation RTT
    assert large["ping_rtt_ms_mean"] > 2 * small["ping_rtt_ms_mean"]  # the queue adds delay
    # The QueueMonitor samples and the trace's time average describe the same queue.
    assert large["qmon_queue_avg_pkts"] == pytest.approx(large["link_queue_avg_pkts"], rel=0.1)


@pytest.mark.usefixtures("ns_available")
def test_same_seed_same_run(tiny_cfg: dict[str, Any], tmp_path: Path) -> None:
    p = point(tiny_cfg, "latency", 10, 1)
    a = simulate(tiny_cfg, p, tmp_path / "a")
    b = simulate(tiny_cfg, p, tmp_path / "b")
    c = simulate(tiny_cfg, point(tiny_cfg, "latency", 10, 2), tmp_path / "c")
    assert (a / "metrics.tsv").read_bytes() == (b / "metrics.tsv").read_bytes()
    assert (a / "ping.tr").read_bytes() != (c / "ping.tr").read_bytes()


# --- claims, diff and notes on synthetic tables -------------------------------------------------


def table(rows: list[tuple[float, float, float, float]], scope: str = "Table 5") -> pd.DataFrame:
    """Claim cells from (buffer, throughput, rtt, drop share) rows of one reading."""
    return pd.DataFrame(
        [
            {"scope": scope, **READING, "buffer": b, "tput": t, "rtt": r, "drop_share": d}
            for b, t, r, d in rows
        ]
    )


def verdict(claim_id: str, cells: pd.DataFrame) -> str:
    claim = next(c for c in ramya.CLAIMS if c.claim_id == claim_id)
    return claims.verdict(claim.check(cells, THRESHOLDS), THRESHOLDS["holds_frac"])


def test_claims_hold_on_the_paper_shape_and_fail_otherwise() -> None:
    paper = table(
        [
            (1, 796, 0.030, 0.025),
            (2, 880, 0.033, 0.02),
            (3, 900, 0.035, 0.016),
            (6, 977, 0.045, 0.013),
            (12, 984, 0.067, 0.007),
            (100, 984, 0.381, 0.001),
        ]
    )
    flat = table([(1, 500, 0.05, 0.2), (2, 990, 0.05, 0.01), (100, 1000, 0.06, 0.0)])
    assert verdict("optimum_3_to_6", paper) == "holds"
    assert verdict("optimum_3_to_6", flat) == "fails"  # knee at 2
    assert verdict("optimum_3_to_6_power", paper) == "fails"  # largest power at 2 frames
    assert verdict("tolerates_2pct_drops", paper) == "holds"
    assert verdict("tolerates_2pct_drops", flat) == "fails"  # 20% drops, half the throughput
    assert verdict("rtt_grows_sharply", paper) == "holds"
    assert verdict("rtt_grows_sharply", flat) == "fails"
    falls = table([(10, 54722, 0.09, 0), (50, 53375, 0.2, 0), (500, 53181, 2, 0)], "Table 1")
    rises = table([(10, 50000, 0.09, 0), (50, 58000, 0.2, 0), (500, 58100, 2, 0)], "Table 1")
    assert verdict("goodput_falls_slightly", falls) == "holds"
    assert verdict("goodput_falls_slightly", rises) == "fails"


def test_remedy_claim() -> None:
    def cells(rtts: list[float]) -> pd.DataFrame:
        windows = [2048, 8192, 102400]
        tputs = [30000, 58000, 58100]
        return pd.DataFrame(
            [
                {**READING, "buffer": 500, "rwnd_bytes": w, "tput": t, "rtt": r}
                for w, t, r in zip(windows, tputs, rtts, strict=True)
            ]
        )

    assert verdict("rwnd_remedy", cells([0.05, 0.1, 1.7])) == "holds"
    assert verdict("rwnd_remedy", cells([0.05, 1.2, 1.7])) == "fails"


def synthetic_summary(buffers_t1: list[int], buffers_t5: list[int]) -> pd.DataFrame:
    """A summary with every reported metric of the configured readings (n = 3, CI +-1%)."""
    rows = []
    for setup, bw, buffers in (("table1", 0.5, buffers_t1), ("table5", 1.0, buffers_t5)):
        for b in buffers:
            values = {
                "tcp_goodput_kbps": 440.0 if setup == "table1" else 900.0,
                "tcp_throughput_kbps": 970.0,
                "tcp_rtt_s_mean": 0.03 + 0.0045 * b,
                "tcp_drops_total": 100.0,
                "tcp_loss_rate": 0.01,
                "link_queue_avg_pkts": 0.75 * b,
            }
            for m, v in values.items():
                rows.append(
                    {"setup": setup, **READING, "bottleneck_mbps": bw, "buffer": b, "metric": m,
                     "n": 3, "mean": v, "sd": 0.0, "ci_low": 0.99 * v, "ci_high": 1.01 * v}
                )  # fmt: skip
    return pd.DataFrame(rows)


def test_diff_claims_and_notes_on_a_synthetic_summary(tiny_cfg: dict[str, Any]) -> None:
    block = tiny_cfg["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    summary = synthetic_summary([10, 50, 100, 500], [1, 2, 3, 6, 12, 25, 50, 100])
    diff, verdicts = ramya.compare(block, summary, published)
    assert len(diff) == 44 and diff["has_counterpart"].all()
    goodput = diff[(diff["published_column"] == "goodput") & (diff["buffer"] == 10)].iloc[0]
    assert goodput["ours_mean"] == pytest.approx(440 * 125)  # kb/s -> B/s
    assert goodput["published"] == 54722
    assert set(verdicts["claim"]) == {c.claim_id for c in ramya.CLAIMS}
    remedy = verdicts[verdicts["claim"] == "rwnd_remedy"].iloc[0]
    assert remedy["verdict"] == "untestable" and remedy["paper_table_verdict"] == "untestable"
    tol = verdicts[verdicts["claim"] == "tolerates_2pct_drops"].iloc[0]
    assert tol["paper_table_verdict"] == "holds"  # 790 drops of ~31900 packets: 2.5%
    notes = ramya.notes(block, summary, published)
    fits = notes[notes["section"] == "which reading fits which table"]
    assert len(fits) == 2 and fits["note"].str.contains("diffed").all()
    assert (notes["section"] == "OMNeT++/INET vs ns-2").sum() >= 5


def test_reading_fits_picks_the_closer_bottleneck(tiny_cfg: dict[str, Any]) -> None:
    block = tiny_cfg["ramya"]
    published = pd.read_csv(REPO / "published" / "ramya.csv")
    near = synthetic_summary([], [1, 6, 100])
    far = near.copy()
    far["bottleneck_mbps"] = 0.5
    far.loc[far["metric"] == "tcp_throughput_kbps", ["mean", "ci_low", "ci_high"]] *= 0.5
    fits = ramya.reading_fits(block, pd.concat([near, far]), published)
    best = fits[fits["best"]].iloc[0]
    assert best["table"] == "Table 5" and best["bottleneck_mbps"] == 1.0
    # Claims: "Table 5" checks the diffed reading only, "Table 5, all readings" both.
    _, verdicts = ramya.compare(block, pd.concat([near, far]), published)
    knee = verdicts[verdicts["claim"] == "optimum_3_to_6"].set_index("scope")["comparisons"]
    assert knee["Table 5"] == 1 and knee["Table 5, all readings"] == 2


# --- end to end -------------------------------------------------------------------------------


@pytest.mark.usefixtures("ns_available")
def test_tiny_grid_end_to_end(tmp_path: Path) -> None:
    work = copy_repo(tmp_path / "repo")
    (work / "tiny.yaml").write_text(yaml.safe_dump(TINY))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    tables = work / "results" / "ramya" / "tables"
    diff = pd.read_csv(tables / "diff.csv")
    # Counterparts: Table 1 at 10 and 100 frames, Table 5 at 1 and 12 frames.
    assert len(diff) == 44 and diff["has_counterpart"].sum() == 14
    notes = pd.read_csv(tables / "notes.csv")
    assert {"which reading fits which table", "OMNeT++/INET vs ns-2"} <= set(notes["section"])
    series = pd.read_csv(tables / "queue_series.csv")
    assert set(series["buffer"]) == {10, 100} and set(series["seed"]) == {1}
    html = (work / "report" / "index.html").read_text()
    assert "Notes" in html and "which reading fits which table" in html
    run = work / "results/ramya/runs/latency/Newreno/bw0.5/rwnd102400/d1/buf10/seed1"
    names = {p.name for p in run.iterdir()}
    assert {"sim.tcl", "params.json", "run.json", "metrics.tsv", "queue.tr"} <= names
    assert not {"out.tr", "rtt.tr", "ping.tr"} & names  # temporary unless keep_traces
