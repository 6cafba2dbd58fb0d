"""bufrepro advise's flags: bad input fails before any run, naming the flag and what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bufrepro import advise
from bufrepro.kit import units
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline.experiments import experiment_file

LINK = ["--rate", "10Mbit", "--rtt", "40ms", "--flows", "3", "--loss", "1%"]


def _with(flag: str, value: str) -> list[str]:
    args = list(LINK)
    if flag in args:
        del args[args.index(flag) : args.index(flag) + 2]
    return [*args, f"{flag}={value}"]  # --rtt=-40ms: argparse reads "-40ms" alone as a flag


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        (
            "--rate",
            "10Mb",
            "--rate (config key link.rate): unknown unit 'Mb' in '10Mb' (did you mean Mbit?)",
        ),
        ("--rtt", "40", "--rtt (config key link.rtt): '40' has no unit; allowed units: s, ms, us"),
        ("--rtt", "-40ms", "--rtt (config key link.rtt): '-40ms' is negative"),
        ("--flows", "0", "--flows (config key flows.count): 0 is less than the minimum of 1"),
        ("--loss", "1", "--loss (config key link.loss): '1' is 1; a loss rate must be below 1"),
        ("--loss", "100%", "a loss rate must be below 1"),
        ("--queue", "DropTail,RD", "unknown queue 'RD' (did you mean RED?)"),
        ("--simulator", "ns4", "--simulator (config key backend): 'ns4' is not one of"),
        ("--cc", "cubc", "--cc (config key flows.cc): unknown 'cubc' (did you mean cubic?)"),
        (
            "--buffer-max",
            "2pkt",
            "--buffer-max (config key buffers.max): 2 packets is not above buffers.min",
        ),
        ("--max-delay", "20", "--max-delay (config key targets.max_delay): '20' has no unit"),
        ("--rtt-spread", "-0.1", "--rtt-spread (config key flows.rtt_spread): -0.1 is less than"),
        ("--rtt-spread", "wide", "--rtt-spread: 'wide' is not a number"),
        ("--start-jitter", "8", "--start-jitter (config key flows.start_jitter): '8' has no unit"),
        ("--budget-cpu", "1h", "--budget-cpu (config key budget.cpu): unknown unit 'h'"),
    ],
)
def test_bad_input_fails_before_any_run(
    flag: str,
    value: str,
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    before = set(Path("experiments").glob("*.yaml")) if Path("experiments").is_dir() else set()
    assert advise.advise(_with(flag, value)) == 2
    err = capsys.readouterr().err
    assert says in err, err
    after = set(Path("experiments").glob("*.yaml")) if Path("experiments").is_dir() else set()
    assert after == before  # nothing written, nothing run


def test_rate_and_rtt_are_required(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    assert advise.advise(["--flows", "3"]) == 2
    assert "--rate and --rtt are required" in capsys.readouterr().err


def test_units_read_what_people_type() -> None:
    assert units.rate_bps("1Gbit", "r") == 1e9 and units.rate_bps("2.5Mbit", "r") == 2.5e6
    assert units.seconds("40ms", "t") == pytest.approx(0.04)
    assert units.fraction("1%", "l") == pytest.approx(0.01) and units.fraction("0.02", "l") == 0.02
    bdp = 10e6 * 0.04 / 8 / 1500
    assert units.buffer_pkts("0.5bdp", "b", 1500, bdp, 10e6) == pytest.approx(bdp / 2)
    assert units.buffer_pkts("12ms", "b", 1500, bdp, 10e6) == pytest.approx(10)
    assert units.buffer_pkts("15KB", "b", 1500, bdp, 10e6) == pytest.approx(10)
    assert units.buffer_pkts("20pkt", "b", 1500, bdp, 10e6) == 20


def test_the_default_name_and_the_written_config(tmp_path: Path) -> None:
    block = advise.block_from_flags(
        advise._advise_parser().parse_args([*LINK, "--queue", "DropTail,RED"])
    )
    assert block["queues"] == ["DropTail", "RED"] and block["flows"]["count"] == 3
    name = experiment_file.default_name(block)
    assert name == "link-10mbit-40ms-3sack-loss1pct-droptail-red"
    path = tmp_path / f"{name}.yaml"
    experiment_file.write(path, name, block, advise._link_flags([*LINK, "--json", "--cores", "2"]))
    text = path.read_text()
    assert "snakemake --cores 2 --configfile" in text and "studies: []" in text
    assert f"written by: bufrepro advise {' '.join(LINK)}\n" in text  # not --json, --cores


def test_another_config_never_overwrites_an_experiment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    parse = advise._advise_parser().parse_args
    droptail = advise.block_from_flags(parse([*LINK, "--queue", "DropTail"]))
    spread = advise.block_from_flags(parse([*LINK, "--queue", "DropTail", "--rtt-spread", "0"]))
    assert experiment_file.default_name(droptail) != experiment_file.default_name(
        spread
    )  # the spread is named
    name = experiment_file.default_name(droptail)
    experiment_file.write(Path("experiments") / f"{name}.yaml", name, droptail, LINK)
    assert experiment_file.free_name(name, droptail, False) == (
        name,
        f"experiments/{name}.yaml holds the same config: its runs are reused",
    )
    other = {**droptail, "seeds": [5, 6]}
    assert experiment_file.free_name(name, other, False) == (
        f"{name}-2",
        f"{name} holds another config",
    )
    with pytest.raises(advise.configuration.ConfigError, match="--name: experiments/"):
        experiment_file.free_name(name, other, True)
