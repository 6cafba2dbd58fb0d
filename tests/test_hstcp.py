"""The hstcp study: config, golden TCL, the streamed parser (synthetic and real ns), claims."""

from __future__ import annotations

import math
import os
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from bufrepro import config, grid, hstcp_model, metrics, render
from bufrepro.studies import hstcp
from conftest import REPO, merged

GOLDEN = Path(__file__).parent / "golden"
AWK = REPO / "awk" / "hstcp.awk"
W = 2**32

# A tiny version of scenario 1 (10 Mb/s, 2.5 s) that real ns runs in well under a second.
TINY_HSTCP: dict[str, Any] = {
    "studies": ["hstcp"],
    "hstcp": {
        "seeds": [1, 2],
        "grid": {"scenario": ["s1"], "queue": ["DropTail", "RED"], "buffer_frac": [0.1, 1.0]},
        "scenarios": {
            "s1": {
                "bottleneck_mbps": 10,
                "bottleneck_delay_ms": 50,
                "rtt_min_ms": 115.5,
                "rtt_max_ms": 124.5,
                "n_flows": 10,
            }
        },
        "tcp": {"start_jitter_s": 0.5},
        "measure": {"duration_s": 2.5, "warmup_s": 1, "sample_s": 0.25},
        "twoflow": {"bottleneck_mbps": 10, "duration_s": 2.5, "warmup_s": 1, "timeseries_s": 0.05},
    },
}


@pytest.fixture
def tiny() -> dict[str, Any]:
    return config.validate(merged(TINY_HSTCP))


def defaults() -> dict[str, Any]:
    return config.validate(merged({}))


def point(
    cfg: dict[str, Any], queue: str, frac: float, seed: int, scen: str = "s1"
) -> grid.RunPoint:
    return next(
        p
        for p in grid.expand(cfg, "hstcp")
        if p.get("scenario") == scen
        and p.get("queue") == queue
        and p.get("buffer_frac") == frac
        and p.seed == seed
    )


# ------------------------------------------------------------------------------ config, render


def test_default_profile_is_the_papers_grid() -> None:
    cfg = defaults()
    block = cfg["hstcp"]
    assert "hstcp" in cfg["studies"]
    assert block["grid"]["buffer_frac"] == [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8, 1.0]
    assert block["grid"]["queue"] == ["DropTail", "RED"] and len(block["seeds"]) >= 2
    assert hstcp.bdp_pkts(block["scenarios"]["s1"], 1000) == 12500
    assert hstcp.bdp_pkts(block["scenarios"]["s2"], 1000) == 6250
    assert block["measure"]["warmup_s"] > 0


@pytest.mark.parametrize(
    ("name", "ref"), [("s1", hstcp_model.SCENARIO_1), ("s2", hstcp_model.SCENARIO_2)]
)
def test_configured_scenarios_are_the_models(name: str, ref: hstcp_model.Scenario) -> None:
    sc = hstcp.model_scenario(defaults()["hstcp"], name)
    assert sc.capacity_bps == ref.capacity_bps and sc.bdp_packets == ref.bdp_packets
    assert sc.packet_bytes == ref.packet_bytes
    assert sc.rtts_s == pytest.approx(ref.rtts_s, abs=1e-12)


def test_flow_rtts_come_from_access_delays() -> None:
    block = defaults()["hstcp"]
    for name in ("s1", "s2"):
        sc = block["scenarios"][name]
        fl = hstcp.flows(block, sc, hstcp.rtts_ms(sc))
        for f in fl:
            rtt = 2 * (
                f["access_delay_ms"]
                + sc["bottleneck_delay_ms"]
                + block["topology"]["sink_delay_ms"]
            )
            assert rtt == pytest.approx(f["rtt_ms"], abs=1e-6) and f["access_delay_ms"] > 0
        rtts = [f["rtt_ms"] for f in fl]
        assert rtts == sorted(rtts)
        assert sum(rtts) / len(rtts) == pytest.approx({"s1": 120, "s2": 90}[name])


@pytest.mark.parametrize("frac", [0.01, 0.015, 0.1, 0.33, 1.0])
def test_buffer_rounding_matches_model(frac: float) -> None:
    for bdp in (12500, 6250, 125):
        assert hstcp.buffer_pkts(frac, bdp) == hstcp_model.buffer_packets_for(frac, bdp)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"grid": {"scenario": ["s9"]}}, "is not defined under hstcp.scenarios"),
        ({"measure": {"sample_s": 20}}, "byte counters need fewer than 2\\^31"),
        ({"tcp": {"start_jitter_s": 12}}, "every flow must start before"),
        ({"scenarios": {"s1": {"rtt_min_ms": 90}}}, "must exceed"),
        ({"twoflow": {"warmup_s": 100}}, "twoflow.warmup_s"),
    ],
)
def test_semantic_checks_name_the_key(override: dict[str, Any], message: str) -> None:
    with pytest.raises(config.ConfigError, match=message):
        config.validate(merged({"hstcp": override}))


@pytest.mark.parametrize(("queue", "frac", "seed"), [("DropTail", 0.1, 1), ("RED", 1.0, 2)])
def test_rendered_tcl_matches_golden(queue: str, frac: float, seed: int) -> None:
    cfg = defaults()
    text = render.render("hstcp", render.run_params(cfg, point(cfg, queue, frac, seed)))
    golden = GOLDEN / f"hstcp_s1_{queue.lower()}_frac{frac:g}_seed{seed}.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )


def test_red_thresholds_follow_the_captions() -> None:
    cfg = defaults()
    small = render.run_params(cfg, point(cfg, "RED", 0.1, 1))  # buffer 1250 < BDP 12500
    assert (small["red_min_th"], small["red_max_th"]) == (500, 1250)
    full = render.run_params(cfg, point(cfg, "RED", 1.0, 1))
    assert (full["red_min_th"], full["red_max_th"]) == (5000, 12500)


# ------------------------------------------------------------------------------ parser (synthetic)


def q_line(
    t: float,
    arr: int,
    dep: int,
    drop: int,
    barr: int,
    bdep: int,
    qlen: int,
    integ: float,
    flows: list[str],
) -> str:
    """A Q sample line; counters are given unwrapped and printed as signed 32-bit values."""

    def s32(v: int) -> int:
        v %= W
        return v - W if v >= 2**31 else v

    head = f"Q {t} {s32(arr)} {s32(dep)} {s32(drop)} {s32(barr)} {s32(bdep)} {qlen} {integ}"
    return " ".join([head, *flows])


def parse(stream: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    args = {"t0": 1, "t1": 3, "t_end": 3, "from": 0, "to": 1, "bps": 8e9, "pkt": 1000, **kw}
    cmd = ["gawk", "-f", str(AWK)]
    for k, v in args.items():
        cmd += ["-v", f"{k}={v}"]
    return subprocess.run(cmd, input=stream, capture_output=True, text=True, check=False)


def values(proc: subprocess.CompletedProcess[str]) -> dict[str, float]:
    return {k: float(v) for k, v in (line.split("\t") for line in proc.stdout.splitlines())}


META = (
    "M capacity_bps 8e9 packet_bytes 1000 buffer_pkts 100 flows 1 t0 1 t1 3 sample_s 1 "
    "level counters"
)


def synthetic(start: int = 1_000_000_000, rate: int = 900_000_000, drops: int = 0) -> list[str]:
    """A run at 8 Gb/s whose signed 32-bit byte counter wraps (passes 2^31) inside the window."""
    lines = [META]
    for i, t in enumerate((0, 1, 2, 3)):
        b = start + i * rate
        pk = b // 1000
        lines.append(
            q_line(
                t,
                pk + drops * i,
                pk,
                drops * i,
                b + drops * i * 1000,
                b,
                0,
                0.0,
                [f"0:{pk + drops * i}:{pk}:{drops * i}:{pk}:50"],
            )
        )
    return lines


def test_parser_unwraps_32_bit_counters() -> None:
    proc = parse("\n".join([*synthetic(), "E 3"]) + "\n")
    assert proc.returncode == 0, proc.stderr
    v = values(proc)
    # 2 x 900 MB in 2 s over 8 Gb/s: utilisation 0.9, although the raw byte counter went negative.
    assert v["link_utilisation"] == pytest.approx(0.9) and v["acct_ok"] == 1


def test_parser_rejects_a_missed_wrap() -> None:
    # 4.8e9 bytes between two samples at 8 Gb/s (1e9 B/s) cannot be: a wrap was missed.
    lines = synthetic(rate=900_000_000)
    lines[3] = q_line(2, 0, 0, 0, 0, 1_000_000_000 + 900_000_000 + W, 0, 0.0, ["0:0:0:0:0:1"])
    proc = parse("\n".join([*lines, "E 3"]) + "\n")
    assert proc.returncode == 3 and "more than the link carries" in proc.stderr


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ls: ls, "no E line"),  # truncated: the stream stops before its end marker
        (lambda ls: [*ls[:2], *ls[3:], "E 3"], "no sample at t0"),
        (lambda ls: [*ls, "d 2.5 0 1 tcp 1000 ------- 0 0.0 1.0 5 77", "E 3"], "drop lines"),
        (lambda ls: [*ls, "d 2.5 4 1 tcp 1000 ------- 0 0.0 1.0 5 77", "E 3"], "another link"),
        (lambda ls: [*ls, "- 2.5 0 1 tcp 1000 ------- 0 0.0 1.0 5 77", "E 3"], "drops-only"),
        (lambda ls: [*ls, "E 2"], "stream ends at 2"),
        (lambda ls: [ls[0].replace("t1 3", "t1 4"), *ls[1:], "E 3"], "window"),
    ],
)
def test_parser_fails_a_bad_stream(edit: Any, message: str) -> None:
    proc = parse("\n".join(edit(synthetic())) + "\n")
    assert proc.returncode == 3 and message in proc.stderr, proc.stderr


def test_parser_checks_conservation() -> None:
    lines = synthetic()
    # arrivals exceed departures + drops + queue at the end: a packet vanished
    lines[-1] = lines[-1].replace("Q 3 ", "Q 3 ").split()
    lines[-1][2] = str(int(lines[-1][2]) + 1)
    lines[-1] = " ".join(lines[-1])
    proc = parse("\n".join([*lines, "E 3"]) + "\n")
    assert proc.returncode == 3 and "arrivals" in proc.stderr


def test_parser_needs_its_parameters() -> None:
    proc = subprocess.run(
        ["gawk", "-f", str(AWK)], input="", capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2 and "set -v" in proc.stderr


# ------------------------------------------------------------------------------ real ns


def simulate(
    cfg: dict[str, Any], p: grid.RunPoint, where: Path, level: str | None = None, keep: int = 0
) -> dict[str, float]:
    record = render.run_record(cfg, p)
    if level:
        record["params"]["trace_level"] = level
    where.mkdir(parents=True, exist_ok=True)
    render.write_run_inputs(record, where / "sim.tcl", where / "params.json")
    a = hstcp.awk_args(record["params"])
    proc = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "run_hstcp.sh"),
            "ns",
            str(where / "sim.tcl"),
            str(where / "metrics.tsv"),
            str(where / "run.json"),
            str(AWK),
            str(keep),
            *(str(a[k]) for k in ("t0", "t1", "t_end", "from", "to", "bps", "pkt")),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    return metrics.read_metrics(where / "metrics.tsv")


@pytest.mark.usefixtures("ns_available")
@pytest.mark.parametrize("queue", ["DropTail", "RED"])
def test_counters_agree_with_per_packet_events(
    tiny: dict[str, Any], tmp_path: Path, queue: str
) -> None:
    p = point(tiny, queue, 0.1, 1)
    c = simulate(tiny, p, tmp_path / "c")
    e = simulate(tiny, p, tmp_path / "e", level="events")
    assert c["link_utilisation"] == e["link_utilisation"] == e["ev_link_utilisation"]
    assert e["ev_queue_avg_pkts"] == pytest.approx(e["queue_avg_pkts"], rel=1e-3, abs=1e-3)
    assert c["drops"] == e["drops"] and c["drops"] > 0  # 13 packets of buffer do overflow
    assert e["trace_lines"] > 10 * c["trace_lines"]  # events: every packet; counters: not
    assert 0.3 < c["link_utilisation"] <= 1 + 8000 / (10e6 * 1.5)
    assert 0 < c["loss_rate"] < 1 and 0 < c["jain_index"] <= 1
    assert sum(c[f"flow{i}_tput_mbps"] for i in range(10)) == pytest.approx(
        c["link_utilisation"] * 10, rel=1e-6
    )


@pytest.mark.usefixtures("ns_available")
def test_same_seed_same_metrics_other_seed_differs(tiny: dict[str, Any], tmp_path: Path) -> None:
    a = simulate(tiny, point(tiny, "DropTail", 1.0, 1), tmp_path / "a")
    b = simulate(tiny, point(tiny, "DropTail", 1.0, 1), tmp_path / "b", keep=1)
    c = simulate(tiny, point(tiny, "DropTail", 1.0, 2), tmp_path / "c")
    assert a == b and a != c
    assert (tmp_path / "b" / "bottleneck.tr.gz").stat().st_size > 0
    assert not (tmp_path / "a" / "bottleneck.fifo").exists()


@pytest.mark.usefixtures("ns_available")
def test_twoflow_run_writes_its_time_series(tiny: dict[str, Any], tmp_path: Path) -> None:
    record = hstcp.twoflow_record(tiny["hstcp"], "under", 1)
    where = tmp_path / "tf"
    where.mkdir()
    render.write_run_inputs(record, where / "sim.tcl", where / "params.json")
    a = hstcp.awk_args(record["params"])
    proc = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "run_hstcp.sh"),
            "ns",
            str(where / "sim.tcl"),
            str(where / "m.tsv"),
            str(where / "run.json"),
            str(AWK),
            "0",
            *(str(a[k]) for k in ("t0", "t1", "t_end", "from", "to", "bps", "pkt")),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    ts = pd.read_csv(where / "timeseries.tsv", sep="\t")
    assert list(ts.columns) == ["time_s", "queue_pkts", "cwnd_0", "cwnd_1"]
    assert len(ts) >= 2.5 / 0.05 and ts["queue_pkts"].max() <= record["params"]["buffer_pkts"]


@pytest.mark.usefixtures("ns_available")
def test_failed_ns_run_fails_without_hanging(tmp_path: Path) -> None:
    (tmp_path / "sim.tcl").write_text("set ns [new Simulator]\nthis_is_not_tcl\n")
    proc = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "run_hstcp.sh"),
            "ns",
            str(tmp_path / "sim.tcl"),
            str(tmp_path / "m.tsv"),
            str(tmp_path / "run.json"),
            str(AWK),
            "0",
            "1",
            "2",
            "2",
            "0",
            "1",
            "1e7",
            "1000",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 1 and "reproduce with: cd" in proc.stdout
    assert "empty stream" in proc.stdout  # the parser was released and rejected the stream
    assert not (tmp_path / "run.json").exists() and not (tmp_path / "m.tsv").exists()


# ------------------------------------------------------------------------------ claims and diff


def summary_table(
    util: dict[float, float],
    jain: dict[float, float] | None = None,
    scen: str = "s1",
    queue: str = "DropTail",
) -> pd.DataFrame:
    rows = []
    for f, u in util.items():
        for metric, v in (
            ("link_utilisation", u),
            ("loss_rate", 1e-3),
            ("jain_index", (jain or {}).get(f, 0.9)),
        ):
            rows.append(
                {
                    "scenario": scen,
                    "queue": queue,
                    "buffer_frac": f,
                    "metric": metric,
                    "n": 3,
                    "mean": v,
                    "sd": 0.01,
                    "ci_low": v - 0.01,
                    "ci_high": v + 0.01,
                }
            )
    return pd.DataFrame(rows)


def model_for(summary: pd.DataFrame, shift: float = 0.0) -> pd.DataFrame:
    m = summary[summary["metric"] == "link_utilisation"]
    return pd.DataFrame(
        {
            "scenario": m["scenario"],
            "queue": m["queue"],
            "buffer_frac": m["buffer_frac"],
            "utilisation": m["mean"] + shift,
            "loss_rate": 1e-3,
            "on_grid": True,
        }
    )


GOOD = {0.01: 0.6, 0.02: 0.75, 0.05: 0.86, 0.1: 0.93, 0.2: 0.975, 0.5: 0.99, 1.0: 0.995}


def verdicts(
    summary: pd.DataFrame, model: pd.DataFrame, twoflow: pd.DataFrame | None = None
) -> dict[str, str]:
    published = pd.read_csv(REPO / "published" / "hstcp_claims.csv")
    claims = hstcp.evaluate(defaults()["hstcp"], summary, model, twoflow, published)
    dt = claims[claims["scope"] == "DropTail"]
    return dict(zip(dt["claim"], dt["verdict"], strict=True))


def test_claims_hold_on_a_curve_like_the_papers() -> None:
    s = summary_table(GOOD, jain={0.01: 0.7, 1.0: 0.95})
    tf = pd.DataFrame({"case": ["under", "over"], "tput_ratio_short_long": [3.0, 1.4]})
    v = verdicts(s, model_for(s, 0.01), tf)
    assert v == {
        "util_90_at_10": "holds",
        "util_98_at_20": "holds",
        "sharp_fall_below_10": "holds",
        "model_sim_agree": "holds",
        "buffer_reduces_rtt_unfairness": "holds",
    }


def test_claims_fail_when_the_numbers_disagree() -> None:
    flat = {f: 0.85 for f in GOOD}  # below 90% at 10%, no fall, far from 98% at 20%
    s = summary_table(flat, jain={0.01: 0.9, 1.0: 0.8})
    tf = pd.DataFrame({"case": ["under", "over"], "tput_ratio_short_long": [1.2, 2.5]})
    v = verdicts(s, model_for(s, 0.2), tf)
    assert v["util_90_at_10"] == v["util_98_at_20"] == v["sharp_fall_below_10"] == "fails"
    assert v["model_sim_agree"] == v["buffer_reduces_rtt_unfairness"] == "fails"


def test_claims_untestable_without_the_fractions() -> None:
    s = summary_table({0.5: 0.99, 1.0: 0.995})
    v = verdicts(s, model_for(s))
    assert v["util_90_at_10"] == v["sharp_fall_below_10"] == "untestable"


def test_diff_places_each_claim_on_its_cells() -> None:
    s = pd.concat(
        [summary_table(GOOD, scen=sc, queue=q) for sc in ("s1", "s2") for q in ("DropTail", "RED")]
    )
    published = pd.read_csv(REPO / "published" / "hstcp_claims.csv")
    diff = hstcp.diff_claims(published, s, model_for(s), defaults()["hstcp"]["claims"])
    by_row = diff.groupby("row")
    # abstract: every cell at 10%; III.A: scenario 1 DropTail only; IV.A 1e-6: scenario 2 RED
    assert len(by_row.get_group(1)) == 4 and set(by_row.get_group(1)["buffer_frac"]) == {0.1}
    assert set(zip(by_row.get_group(4)["scenario"], by_row.get_group(4)["queue"], strict=True)) == {
        ("s1", "DropTail")
    }
    assert set(by_row.get_group(7)["queue"]) == {"RED"} and set(
        by_row.get_group(7)["scenario"]
    ) == {"s2"}
    # IV.A 1e-5 covers buffer ratios >= 0.1 of scenario 1 RED
    assert sorted(by_row.get_group(6)["buffer_frac"]) == [0.1, 0.2, 0.5, 1.0]
    assert 3 not in by_row.groups and 10 not in by_row.groups  # qualitative claims are not rows
    row1 = by_row.get_group(1).iloc[0]
    assert row1["ours_mean"] == 0.93 and bool(row1["sim_agrees"]) and not math.isnan(row1["model"])


@pytest.mark.parametrize(
    ("rel", "value", "claimed", "quantity", "ok"),
    [
        (">=", 0.9, 0.9, "utilization", True),
        (">=", 0.899, 0.9, "utilization", False),
        ("~", 0.972, 0.98, "utilization", True),
        ("~", 0.96, 0.98, "utilization", False),
        ("~", 2.9e-3, 1e-3, "loss_rate", True),
        ("=", 4e-5, 1e-5, "loss_rate", False),
        ("~", math.nan, 1e-3, "loss_rate", False),
    ],
)
def test_relations(rel: str, value: float, claimed: float, quantity: str, ok: bool) -> None:
    th = {"util_tol": 0.01, "loss_factor": 3}
    assert hstcp.relation_holds(rel, value, claimed, quantity, th) is ok
