"""The fault corpus on vegas's MixedTally streams (trace_level tally): every kind of truncated,
foreign, duplicated, corrupted or forged tally stream fails vegas.awk loudly (non-zero exit, the
file, a line number and the rule on stderr) and writes no number and no series.

The originals are real tiny vegas runs at trace_level tally (the patched ns), streams kept, with
a dumbbell tally stream as the foreign study's; tally_mutations.KINDS (the WiredTally corpus,
with vegas's metric names) and the series' own kinds are applied to each and parsed as
execute() parses it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import fault_runs
import pytest
from fault_runs import KeptRun, config, kept_run, parse
from mutations import Originals
from tally_mutations import KINDS, add_lines, drop_kind, edited, set_metric, set_param
from tally_mutations import split as split_stream

from bufrepro.backends.streamsum import end_line

pytestmark = pytest.mark.usefixtures("ns_available")


def _bins(edit: Callable[[list[bytes]], list[bytes]]) -> Callable[[Originals], bytes]:
    return lambda o: edited(o.own, edit, seal=True)


def _first_bin(body: list[bytes]) -> int:
    return next(i for i, x in enumerate(body) if x.startswith(b"bin\t"))


def _bin_twice(body: list[bytes]) -> list[bytes]:
    return [*body, body[_first_bin(body)]]


def _bin_value(value: bytes) -> Callable[[list[bytes]], list[bytes]]:
    def edit(body: list[bytes]) -> list[bytes]:
        i = _first_bin(body)
        body[i] = b"\t".join(body[i].split(b"\t")[:2]) + b"\t" + value + b"\n"
        return body

    return edit


def _bin_changed_unsealed(o: Originals) -> bytes:
    return edited(o.own, _bin_value(b"1"), seal=False)


MIXED_KINDS: dict[str, Callable[[Originals], bytes]] = {
    **KINDS,
    # vegas.awk's metric names in place of wired.awk's
    "metric_line_lost": lambda o: edited(o.own, drop_kind(b"metric", b"tcp_recv_pkts"), False),
    "stranded_lost_resealed": lambda o: edited(o.own, drop_kind(b"metric", b"acct_stranded"), True),
    "unknown_metric_resealed": lambda o: edited(
        o.own, add_lines(b"metric\ttcp_rx_pkts\t1\n"), True
    ),
    "lost_sum_broken_resealed": lambda o: edited(o.own, set_metric(b"tcp_lost_pkts", b"99"), True),
    "drops_sum_broken_resealed": lambda o: edited(
        o.own, set_metric(b"tcp_drops_wired", b"7"), True
    ),
    "efficiency_garbage_resealed": lambda o: edited(
        o.own, set_metric(b"tcp_efficiency_pct", b"x"), True
    ),
    "other_flow_resealed": lambda o: edited(o.own, set_param(b"fid", b"2"), True),
    "other_bin_width_resealed": lambda o: edited(o.own, set_param(b"bin_s", b"2"), True),
    "other_traced_resealed": lambda o: edited(o.own, set_param(b"traced", b"0-1"), True),
    # the series
    "bin_changed": _bin_changed_unsealed,
    "bin_twice_resealed": _bins(_bin_twice),
    "bin_negative_resealed": _bins(_bin_value(b"-8")),
    "bin_fraction_resealed": _bins(_bin_value(b"8.5")),
    "bin_outside_window_resealed": _bins(add_lines(b"bin\t999\t8\n")),
    "format_of_the_wired_tally_resealed": _bins(
        lambda b: [b"tally\twired\t2\n" if x == b"tally\tmixed\t2\n" else x for x in b]
    ),
}


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> dict[str, KeptRun]:
    """vegas's tiny runs at trace_level tally and full, and dumbbell's at tally (the foreign)."""
    where = tmp_path_factory.mktemp("mixed-tally-originals")
    cfg = config()
    cfg["dumbbell"]["trace_level"] = "tally"
    runs = {"dumbbell": kept_run(cfg, "dumbbell", where / "tally")}
    for level in ("tally", "full"):
        cfg["vegas"]["trace_level"] = level
        runs["vegas" if level == "tally" else "vegas-full"] = kept_run(cfg, "vegas", where / level)
    return runs


def originals(kept: dict[str, KeptRun]) -> Originals:
    return fault_runs.originals(kept, "vegas", kept["dumbbell"], ("1", "2"))


def assert_fails_loudly(proc: object, name: str, run_dir: Path) -> None:
    """Non-zero exit; the file, a line number and a reason on stderr; nothing on stdout and no
    series written."""
    rc, out, err = proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")  # type: ignore[attr-defined]
    assert rc != 0, f"exit 0 on {name}: {out[:300]!r}"
    assert out == b"", f"numbers written on {name}: {out[:300]!r}"
    assert name in err and "line " in err, err[:600]
    assert not (run_dir / "series.tsv").exists(), name


def test_the_original_parses_and_is_sealed(kept: dict[str, KeptRun]) -> None:
    """The unmutated stream passes with the metrics and series execute() kept; its end line is
    the corpus's checksum of its body."""
    run = kept["vegas"]
    series = run.spec.run_dir / "series.tsv"
    want = series.read_bytes()
    series.unlink()
    proc = parse(run.spec, [run.stream])
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == (run.spec.run_dir / "metrics.tsv").read_bytes()
    assert series.read_bytes() == want
    _, body = split_stream(run.stream.read_bytes())
    end = run.stream.read_bytes().splitlines()[-1]
    assert end == end_line(run.stream.read_bytes().splitlines()[:-1]) and len(body) > 3


@pytest.mark.parametrize("kind", sorted(MIXED_KINDS))
def test_a_damaged_or_foreign_tally_stream_fails_loudly(
    kept: dict[str, KeptRun], kind: str
) -> None:
    run = kept["vegas"]
    where = run.spec.run_dir / f"fault-{kind}"
    where.mkdir()
    name = "stream.tr"
    (where / name).write_bytes(MIXED_KINDS[kind](originals(kept)))
    spec = dataclasses.replace(run.spec, run_dir=where)
    assert_fails_loudly(parse(spec, [where / name]), name, where)


def test_a_stream_of_the_other_trace_level_fails(kept: dict[str, KeptRun], tmp_path: Path) -> None:
    """The text trace fed to the tally parser, and the tally stream to the text parser, fail
    (the same run: only the trace level differs)."""
    tally_run, full_run = kept["vegas"], kept["vegas-full"]
    pairs = ((tally_run.spec, full_run.stream), (full_run.spec, tally_run.stream))
    for i, (spec, stream) in enumerate(pairs):
        where = tmp_path / str(i)
        where.mkdir()
        (where / "stream.tr").write_bytes(stream.read_bytes())
        proc = parse(dataclasses.replace(spec, run_dir=where), [where / "stream.tr"])
        assert_fails_loudly(proc, "stream.tr", where)


def test_only_the_header_tells_the_same_scenario_apart(kept: dict[str, KeptRun]) -> None:
    """Without the fingerprint the other seed's tally stream parses: the header rejects it."""
    run = kept["vegas"]
    args = {k: v for k, v in run.spec.parser_args.items() if k != "fingerprint"}
    spec = dataclasses.replace(run.spec, parser_args=args)
    proc = parse(spec, [run.other_seed.run_dir / run.other_seed.stream])
    assert proc.returncode == 0, proc.stderr.decode()[:600]


def test_the_mixed_corpus_has_at_least_40_kinds() -> None:
    assert len(MIXED_KINDS) >= 40
