"""Aggregation trusts nothing it reads: each corrupted metrics.tsv or run.json of a real run
stops the aggregation with an error naming the run (and the file); no table is written."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fault_runs import KeptRun, kept_runs
from mutations import noise

from bufrepro.kit import checks, tables
from bufrepro.pipeline import aggregate
from bufrepro.studies.dumbbell import STUDY

pytestmark = pytest.mark.usefixtures("ns_available")


def _set(name: str, value: str) -> Callable[[str], str]:
    """metrics.tsv with the metric's value replaced."""

    def edit(text: str) -> str:
        out = [f"{name}\t{value}" if ln.split("\t")[0] == name else ln for ln in text.splitlines()]
        assert out != text.splitlines(), name
        return "\n".join(out) + "\n"

    return edit


def _drop(name: str) -> Callable[[str], str]:
    return lambda t: "".join(ln + "\n" for ln in t.splitlines() if ln.split("\t")[0] != name)


METRICS: dict[str, Callable[[str], str]] = {
    "duplicated_metric_line": lambda t: t + t.splitlines()[0] + "\n",
    "duplicated_metric_other_value": lambda t: t + "tcp_loss_rate\t0.5\n",
    "nan_value": _set("tcp_delay_ms_mean", "nan"),
    "inf_value": _set("tcp_throughput_kbps", "inf"),
    "non_numeric_value": _set("tcp_drops_total", "many"),
    "negative_count": _set("tcp_drops_total", "-3"),
    "fractional_count": _set("tcp_sent_pkts", "10.5"),
    "utilisation_above_1": _set("link_utilisation", "1.000420"),
    "loss_rate_above_1": _set("cbr_loss_rate", "1.2"),
    "rate_above_capacity": _set("tcp_throughput_kbps", "500.100000"),
    "tcp_plus_cbr_above_capacity": lambda t: _set("cbr_throughput_kbps", "499.999")(
        _set("tcp_throughput_kbps", "1.0")(t)
    ),
    "no_acct_ok": _drop("acct_ok"),
    "acct_ok_0": _set("acct_ok", "0"),
    "required_metric_missing": _drop("tcp_delay_ms_mean"),
    "required_metric_empty": _set("link_queue_avg_pkts", ""),
    "line_without_tab": lambda t: t + "tcp_extra 5\n",
    "crlf_endings": lambda t: t.replace("\n", "\r\n"),
    "cut_mid_line": lambda t: t[: len(t) // 2],
    "emptied": lambda t: "",
    "nul_byte": lambda t: t.replace("\t", "\t\0", 1),
}


def _scale(name: str, factor: float, fmt: str = "%.6f") -> Callable[[str], str]:
    """metrics.tsv with one value multiplied, printed as the parsers print it (still plausible)."""

    def edit(text: str) -> str:
        out = []
        for ln in text.splitlines():
            k, _, v = ln.partition("\t")
            out.append(f"{k}\t{fmt % (float(v) * factor)}" if k == name else ln)
        assert out != text.splitlines(), name
        return "\n".join(out) + "\n"

    return edit


def _swap(a: str, b: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        vals = dict(ln.split("\t", 1) for ln in text.splitlines())
        return "".join(
            f"{k}\t{vals[b] if k == a else vals[a] if k == b else v}\n" for k, v in vals.items()
        )

    return edit


# Hand edits that stay plausible (names once, finite, within bounds and capacity): only the
# digest in run.json (metrics_sha256) tells them from what the run wrote.
PLAUSIBLE: dict[str, Callable[[str], str]] = {
    "delay_doubled": _scale("tcp_delay_ms_mean", 2),
    "delay_halved": _scale("tcp_delay_ms_mean", 0.5),
    "delay_max_doubled": _scale("tcp_delay_ms_max", 2),
    "delay_p95_up_10pct": _scale("tcp_delay_ms_p95", 1.1),
    "throughput_halved": _scale("tcp_throughput_kbps", 0.5),
    "goodput_halved": _scale("tcp_goodput_kbps", 0.5),
    "utilisation_halved": _scale("link_utilisation", 0.5),
    "queue_avg_doubled": _scale("link_queue_avg_pkts", 2),
    "loss_rate_halved": _scale("tcp_loss_rate", 0.5),
    "drops_plus_one": lambda t: _set(
        "tcp_drops_total",
        str(int(dict(ln.split("\t", 1) for ln in t.splitlines())["tcp_drops_total"]) + 1),
    )(t),
    "one_digit_changed": lambda t: (
        t.replace(".", ".9", 1) if ".9" not in t[:40] else t.replace(".", ".1", 1)
    ),
    "delay_rounded": _scale("tcp_delay_ms_mean", 1, "%.2f"),
    "value_with_trailing_zero": _scale("tcp_delay_ms_mean", 1, "%.7f"),
    "delay_and_max_swapped": _swap("tcp_delay_ms_mean", "tcp_delay_ms_p95"),
    "throughput_and_goodput_swapped": _swap("tcp_throughput_kbps", "tcp_goodput_kbps"),
    "lines_reordered": lambda t: "".join(
        sorted((ln + "\n" for ln in t.splitlines()), reverse=True)
    ),
    "optional_metric_removed": _drop("cbr_delay_ms_max"),
    "extra_plausible_metric": lambda t: t + "tcp_extra_pkts\t3\n",
    "trailing_newline_lost": lambda t: t[:-1],
    "blank_line_added": lambda t: t + "\n",
    "queue_max_plus_one": lambda t: _set(
        "link_queue_max_pkts",
        str(int(dict(ln.split("\t", 1) for ln in t.splitlines())["link_queue_max_pkts"]) + 1),
    )(t),
}
RECORD: dict[str, Callable[[dict[str, Any]], str]] = {
    "metrics_digest_missing": lambda m: json.dumps(
        {k: v for k, v in m.items() if k != "metrics_sha256"}
    ),
    "metrics_digest_not_a_digest": lambda m: json.dumps({**m, "metrics_sha256": "0" * 63}),
    "metrics_digest_of_another_file": lambda m: json.dumps({**m, "metrics_sha256": "a" * 64}),
    "not_json": lambda m: json.dumps(m)[:-5],
    "emptied": lambda m: "",
    "a_list": lambda m: json.dumps([m]),
    "key_missing": lambda m: json.dumps({k: v for k, v in m.items() if k != "key"}),
    "parser_args_missing": lambda m: json.dumps({k: v for k, v in m.items() if k != "parser_args"}),
    "exit_code_1": lambda m: json.dumps({**m, "exit_code": 1}),
    "exit_code_a_string": lambda m: json.dumps({**m, "exit_code": "0"}),
    "wall_s_nan": lambda m: json.dumps({**m, "wall_s": float("nan")}),
    "key_not_a_digest": lambda m: json.dumps({**m, "key": "x" * 64}),
}


@pytest.fixture(scope="module")
def dumbbell(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> KeptRun:
    return kept_runs(tmp_path_factory.mktemp("originals"))["dumbbell"]


def copy_run(run: KeptRun, where: Path, which: int = 0) -> Path:
    """One of the kept runs' folders (0: the original, 2: its other seed) without its stream,
    in its canonical folder under `where`: params.json, sim.tcl, run.json, metrics.tsv."""
    spec = (run.spec, run.other, run.other_seed, run.other_buffer)[which]
    dest = where / run.points[which].run_dir
    dest.mkdir(parents=True)
    for name in ("params.json", "sim.tcl", "run.json", "metrics.tsv"):
        shutil.copy(spec.run_dir / name, dest / name)
    return dest


def fails_naming_the_run(run_dir: Path, tmp_path: Path) -> None:
    """read_run and the whole aggregation stop, naming the run; no table is written."""
    with pytest.raises(checks.BadRunFiles, match=str(run_dir)):
        tables.read_run(run_dir, STUDY.own_simulator(), STUDY.required_metrics())
    manifest = tmp_path / "b0000.tsv"
    manifest.write_text(f"run_dir\tstatus\tseconds\n{run_dir}\tran\t0.1\n")
    out = tmp_path / "tables"
    with pytest.raises(checks.BadRunFiles, match=str(run_dir)):
        aggregate.write_tables({"dumbbell": {}}, "dumbbell", [manifest], out, tmp_path / "p.json")
    assert not out.exists() or not any(out.iterdir())


def test_the_original_run_is_read(dumbbell: KeptRun, tmp_path: Path) -> None:
    row = tables.read_run(
        copy_run(dumbbell, tmp_path / "run"), STUDY.own_simulator(), STUDY.required_metrics()
    )
    assert row["acct_ok"] == 1 and 0 < row["link_utilisation"] <= 1


@pytest.mark.parametrize("kind", sorted(METRICS))
def test_a_corrupted_metrics_file_stops_aggregation(
    dumbbell: KeptRun, kind: str, tmp_path: Path
) -> None:
    run_dir = copy_run(dumbbell, tmp_path / "run")
    path = run_dir / "metrics.tsv"
    path.write_bytes(METRICS[kind](path.read_text()).encode())
    fails_naming_the_run(run_dir, tmp_path)


@pytest.mark.parametrize("kind", sorted(RECORD))
def test_a_corrupted_run_record_stops_aggregation(
    dumbbell: KeptRun, kind: str, tmp_path: Path
) -> None:
    run_dir = copy_run(dumbbell, tmp_path / "run")
    path = run_dir / "run.json"
    path.write_text(RECORD[kind](json.loads(path.read_text())))
    fails_naming_the_run(run_dir, tmp_path)


def test_a_binary_metrics_file_stops_aggregation(dumbbell: KeptRun, tmp_path: Path) -> None:
    run_dir = copy_run(dumbbell, tmp_path / "run")
    (run_dir / "metrics.tsv").write_bytes(noise(4096, 5))
    fails_naming_the_run(run_dir, tmp_path)


@pytest.mark.parametrize("kind", sorted(PLAUSIBLE))
def test_a_plausible_hand_edit_of_the_metrics_stops_aggregation(
    dumbbell: KeptRun, kind: str, tmp_path: Path
) -> None:
    """The edited file passes every check of its content; run.json's digest refuses it,
    naming the run and the command that remakes it."""
    run_dir = copy_run(dumbbell, tmp_path / "run")
    path = run_dir / "metrics.tsv"
    edited = PLAUSIBLE[kind](path.read_text())
    assert edited != path.read_text(), kind
    path.write_bytes(edited.encode())
    with pytest.raises(checks.BadRunFiles, match="not the file this run made") as err:
        tables.read_run(run_dir, STUDY.own_simulator(), STUDY.required_metrics())
    meta = json.loads((run_dir / "run.json").read_text())
    assert str(run_dir) in str(err.value) and meta["command"] in str(err.value)
    fails_naming_the_run(run_dir, tmp_path)


def test_the_plausible_corpus_has_at_least_20_kinds() -> None:
    assert len(PLAUSIBLE) >= 20
