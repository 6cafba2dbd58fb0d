"""Config mishaps: each fails before any run, naming the file or the key and what is allowed.

Integers given as 10.0, duplicated keys, YAML 1.1 booleans (and quoted ones) where a boolean is
wanted, files that are not YAML or not a mapping, and plans too big to make.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import configuration

BUFFERS = ", ".join(str(b) for b in range(1, 2001))
SEEDS = ", ".join(str(s) for s in range(1, 1801))
# name -> (file text, what the error must say)
MISHAPS: dict[str, tuple[str, str]] = {
    # an integer key given a float
    "buffer_10.0": (
        "dumbbell:\n  grid:\n    buffer: [10.0]\n",
        "dumbbell.grid.buffer[0]: 10.0 is not of type 'integer'",
    ),
    "seed_1.0": ("dumbbell:\n  seeds: [1.0]\n", "dumbbell.seeds[0]: 1.0 is not of type 'integer'"),
    "sources_3.0": (
        "dumbbell:\n  tcp:\n    sources: 3.0\n",
        "dumbbell.tcp.sources: 3.0 is not of type 'integer'",
    ),
    "mss_1460.0": (
        "dumbbell:\n  tcp:\n    mss_bytes: 1460.0\n",
        "dumbbell.tcp.mss_bytes: 1460.0 is not of type",
    ),
    "ramya_mss_536.0": (
        "ramya:\n  tcp:\n    mss_bytes: 536.0\n",
        "ramya.tcp.mss_bytes: 536.0 is not of type",
    ),
    "runs_per_job_5.0": (
        "runs_per_job:\n  dumbbell: 5.0\n",
        "runs_per_job.dumbbell: 5.0 is not of type",
    ),
    "max_planned_runs_10.0": ("max_planned_runs: 10.0\n", "max_planned_runs: 10.0 is not of type"),
    # duplicated keys
    "studies_twice": ("studies: [dumbbell]\nstudies: [ramya]\n", "duplicate key 'studies'"),
    "block_twice": (
        "dumbbell:\n  seeds: [1]\ndumbbell:\n  seeds: [2]\n",
        "duplicate key 'dumbbell'",
    ),
    "nested_twice": (
        "dumbbell:\n  tcp:\n    sources: 3\n    sources: 4\n",
        "duplicate key 'sources'",
    ),
    "grid_key_twice": (
        "dumbbell:\n  grid:\n    buffer: [5]\n    buffer: [10]\n",
        "duplicate key 'buffer'",
    ),
    # YAML 1.1 booleans, and booleans written as text
    "gentle_no": (
        "dumbbell:\n  red:\n    gentle: no\n",
        "dumbbell.red.gentle: 'no' is text, not a boolean",
    ),
    "gentle_No": ("dumbbell:\n  red:\n    gentle: No\n", "dumbbell.red.gentle: 'No' is text"),
    "gentle_off": ("dumbbell:\n  red:\n    gentle: off\n", "dumbbell.red.gentle: 'off' is text"),
    "gentle_on": ("dumbbell:\n  red:\n    gentle: on\n", "dumbbell.red.gentle: 'on' is text"),
    "gentle_yes": ("dumbbell:\n  red:\n    gentle: yes\n", "dumbbell.red.gentle: 'yes' is text"),
    "gentle_quoted_no": (
        "dumbbell:\n  red:\n    gentle: 'no'\n",
        "dumbbell.red.gentle: 'no' is text",
    ),
    "gentle_quoted_false": (
        "dumbbell:\n  red:\n    gentle: 'false'\n",
        "dumbbell.red.gentle: 'false' is text",
    ),
    "syn_on": ("dumbbell:\n  tcp:\n    syn: on\n", "dumbbell.tcp.syn: 'on' is text"),
    "bytes_mode_Off": (
        "dumbbell:\n  red:\n    bytes_mode: Off\n",
        "dumbbell.red.bytes_mode: 'Off' is text",
    ),
    # not YAML, not a mapping
    "unclosed_bracket": ("dumbbell: [1, 2\n", "not valid YAML"),
    "tab_indentation": ("dumbbell:\n\tseeds: [1]\n", "not valid YAML"),
    "binary_garbage": ("\x00\x01\x02\x03", "not valid YAML"),
    "a_list": (
        "- dumbbell\n- ramya\n",
        "the top level must be a mapping of config keys, not a list",
    ),
    "a_number": ("42\n", "the top level must be a mapping of config keys, not a int"),
    "a_string": ("dumbbell\n", "the top level must be a mapping of config keys, not a str"),
    # plans too big to make
    "grid_240_thousand": (
        f"studies: [dumbbell]\ndumbbell:\n  seeds: [1, 2]\n  grid:\n    buffer: [{BUFFERS}]\n"
        f"    plr: [0.0, 0.01, 0.02]\n    bottleneck_mbps: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
        "    queue: [DropTail, RED]\n",
        "the plan would make 240,000 runs",
    ),
    "seeds_times_buffers": (
        f"studies: [dumbbell]\ndumbbell:\n  seeds: [{SEEDS}]\n  grid:\n    buffer: [{BUFFERS}]\n",
        "more than max_planned_runs 100,000",
    ),
}


@pytest.mark.parametrize("name", sorted(MISHAPS))
def test_a_config_mishap_fails_before_any_run(name: str, tmp_path: Path) -> None:
    text, says = MISHAPS[name]
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ConfigError) as err:
        configuration.load(path)
    message = str(err.value)
    assert says in message, message[:600]
    if "YAML" in says or "top level" in says or "duplicate" in says or "text" in says:
        assert str(path) in message, message[:600]


def test_a_big_plan_says_how_to_go_on(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(MISHAPS["grid_240_thousand"][0])
    with pytest.raises(ConfigError, match="--config max_planned_runs=240000"):
        configuration.load(path)
    # raising the limit goes on (the plan itself is not made here)
    raised = tmp_path / "raised.yaml"
    # (ns-2 alone: the ns-3 backend needs buffers of at least 2)
    raised.write_text(
        "max_planned_runs: 240000\nsimulators: {dumbbell: [ns2]}\n"
        + MISHAPS["grid_240_thousand"][0]
    )
    assert configuration.load(raised)["max_planned_runs"] == 240000


def test_booleans_and_integers_still_read(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("dumbbell:\n  red:\n    gentle: false\n  tcp:\n    sources: 3\n")
    cfg = configuration.load(path)
    assert cfg["dumbbell"]["red"]["gentle"] is False and cfg["dumbbell"]["tcp"]["sources"] == 3


def test_the_config_corpus_has_at_least_20_mishaps() -> None:
    assert len(MISHAPS) >= 20
