"""`bufrepro advise` explains itself: flag help from the schema, one sentence per bad value."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bufrepro import advise
from bufrepro.pipeline import configuration
from conftest import copy_repo

# Each flag whose value carries a unit, and a unit its help must name. A flag missing here and
# from UNITLESS fails test_every_flag_is_classified: say which it is when you add one.
UNITS = {
    "--rate": "Mbit",
    "--rtt": "ms",
    "--loss": "%",
    "--mss": "bytes",
    "--window": "packets",
    "--start-jitter": "ms",
    "--web": "per second",
    "--cbr": "Mbit",
    "--red-min-th": "pkt",
    "--red-max-th": "pkt",
    "--buffer-min": "pkt",
    "--buffer-max": "bdp",
    "--warmup": "ms",
    "--measure": "ms",
    "--within": "%",
    "--max-delay": "ms",
    "--max-loss": "%",
    "--budget-cpu": "s",
    "--budget-memory": "MB",
}
# Counts, shares, names and choices: no unit.
UNITLESS = (
    "--access-share",
    "--flows",
    "--cc",
    "--rtt-spread",
    "--queue",
    "--simulator",
    "--aqm-targets",
    "--coarse",
    "--refine",
    "--seeds",
    "--ecn",
)


def _helps() -> dict[str, str]:
    parser = advise._advise_parser()
    return {
        a.option_strings[0]: str(a.help).replace("%%", "%")
        for a in parser._actions
        if a.option_strings
    }


def test_every_flag_is_classified() -> None:
    assert set(advise.FLAG_KEYS) == set(UNITS) | set(UNITLESS)


@pytest.mark.parametrize("flag", sorted(advise.FLAG_KEYS))
def test_each_flags_help_gives_meaning_unit_and_default(flag: str) -> None:
    node = configuration.kind_schema("link")
    for part in advise.FLAG_KEYS[flag].split("."):
        node = node["properties"][part]
    default = node["default"]
    typed = ",".join(map(str, default)) if isinstance(default, list) else str(default)
    if isinstance(default, bool):
        typed = "on" if default else "off"
    text = _helps()[flag]
    if flag in advise.REQUIRED:  # --rate, --rtt: no default for a new experiment
        meaning, _, said = text.rpartition("; ")
        assert said == "required (unless --config)", text
    else:
        meaning, _, said = text.rpartition("; default: ")
        assert said == (typed or "none"), text
    assert len(meaning.split()) >= 5, f"{flag}: no meaning in {text!r}"
    assert "config key" not in meaning
    if flag in UNITS:
        assert UNITS[flag] in meaning, f"{flag}: no unit {UNITS[flag]!r} in {text!r}"


def test_the_help_prints_and_names_the_defaults() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "advise", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: bufrepro advise")
    flat = " ".join(proc.stdout.split())
    assert "required (unless --config)" in flat and "default: DropTail,RED" in flat
    assert "link (config keys link.*):" in proc.stdout  # the flags grouped by block
    assert "--json" in flat and "LINK__RATE" not in flat


LINK = ["--rate", "10Mbit", "--rtt", "40ms", "--flows", "3"]
# (flags replacing the link's, a piece of the one line the refusal prints)
BAD = [
    (["--rtt", "-5ms"], "--rtt (config key link.rtt): '-5ms' is negative"),
    (["--rtt", "40min"], "--rtt (config key link.rtt): unknown unit 'min' in '40min'"),
    (["--seeds", "1"], "--seeds: '1' gives 1 seed(s), too few"),
    (["--seeds", "1,1"], "--seeds: '1,1'; allowed: distinct seeds"),
    (["--within", "150%"], "--within (config key targets.within): '150%' is 1.5; the utilisation"),
    (["--rate", "0"], "--rate (config key link.rate): '0' must be above 0"),
    (["--rate", "10Mbps"], "unknown unit 'Mbps' in '10Mbps' (did you mean Mbit?)"),
    (["--flows", "-3"], "--flows (config key flows.count): -3 is less than the minimum of 1"),
    (["--queue", "Foo"], "--queue (config key queues): unknown queue 'Foo'; allowed: DropTail"),
    (["--loss", "-1%"], "--loss (config key link.loss): '-1%' is negative"),
    (["--coarse", "2.5"], "--coarse: '2.5' is not a whole number"),
    (["--cores", "x"], "argument --cores: invalid int value: 'x'"),
    (["--cores", "0"], "--cores: 0; allowed: 1 or more"),
    (["--rat", "3"], "unrecognized arguments: --rat 3"),
    (["--config", "nope.yaml"], "--config: nope.yaml: cannot read it"),
    (["--name", "a/b"], "--name: 'a/b'; allowed: letters, digits"),
    (["--budget-cpu", "1s"], "--budget-cpu (config key budget.cpu): the "),
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_repo(tmp_path_factory.mktemp("advise-cli") / "repo")


@pytest.mark.parametrize(("flags", "says"), BAD, ids=[" ".join(f) for f, _ in BAD])
def test_a_bad_value_gets_one_sentence_before_any_run(
    repo: Path, flags: list[str], says: str
) -> None:
    pairs = [LINK[i : i + 2] for i in range(0, len(LINK), 2)]
    args = [a for pair in pairs if pair[0] != flags[0] for a in pair]  # the bad value replaces it
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "advise", *args, *flags],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo / "src")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("bufrepro advise: ") and says in lines[0], lines[0]
    assert "Traceback" not in proc.stderr + proc.stdout
    assert re.search(r"--[a-z-]+", lines[0]), "the sentence names the flag"
    # Nothing written, nothing run: no experiment file, no results folder.
    assert not (repo / "experiments").exists() and not (repo / "results").exists()
