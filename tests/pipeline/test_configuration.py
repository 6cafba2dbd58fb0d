"""Schema and semantic validation: bad input is rejected with the key and what is allowed."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from bufrepro.pipeline import configuration as config
from conftest import base_config, copy_repo, merged, snakemake


def test_default_config_is_valid_and_complete() -> None:
    cfg = config.validate(base_config())
    assert cfg["dumbbell"]["grid"]["buffer"] == [2, 3, 5, 6, 7, 8, 9, 10, 15, 30, 50]
    assert len(cfg["dumbbell"]["seeds"]) >= 10


def test_defaults_fill_an_empty_config() -> None:
    with pytest.raises(config.ConfigError, match="no reason given for unstated parameter"):
        # The schema's defaults give values but no reasons: assumptions must be written down.
        config.validate({})


@pytest.mark.parametrize(
    ("override", "key", "allowed"),
    [
        ({"grid": {"buffer": [-5]}}, "dumbbell.grid.buffer[0]", ">= 1"),
        ({"grid": {"plr": [1.0]}}, "dumbbell.grid.plr[0]", "< 1"),
        (
            {"grid": {"queue": ["SFQ"]}},
            "dumbbell.grid.queue[0]",
            "['DropTail', 'RED', 'CoDel', 'PIE', 'FQ-CoDel']",
        ),
        # A queue the study's simulator lacks names the backend that has it.
        (
            {"grid": {"queue": ["CoDel"]}},
            "dumbbell.grid.queue: CoDel is not available on the ns2 backend",
            "allowed: DropTail, RED); ns3 has it",
        ),
        (
            {"grid": {"bottleneck_mbps": ["fast"]}},
            "dumbbell.grid.bottleneck_mbps[0]",
            "type number",
        ),
        ({"tcp": {"agent": "Cubic"}}, "dumbbell.tcp.agent", "['Sack1', 'Newreno', 'Reno']"),
        ({"seeds": [0]}, "dumbbell.seeds[0]", ">= 1"),
        ({"measure": {"duration_s": "long"}}, "dumbbell.measure.duration_s", "type number"),
        ({"typo_key": 1}, "dumbbell", "known keys"),
    ],
)
def test_bad_values_name_key_and_allowed(override: dict[str, Any], key: str, allowed: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        config.validate(merged({"dumbbell": override}))
    text = str(err.value)
    assert key in text
    assert allowed in text


def test_warmup_must_precede_end() -> None:
    with pytest.raises(config.ConfigError, match=r"warmup_s: 10 must be below"):
        config.validate(merged({"dumbbell": {"measure": {"duration_s": 10, "warmup_s": 10}}}))


def test_assumption_for_unknown_key_rejected() -> None:
    cfg = merged({})
    cfg["dumbbell"]["assumptions"]["tcp.no_such_key"] = "why"
    with pytest.raises(config.ConfigError, match=r"assumptions.tcp.no_such_key: names no key"):
        config.validate(cfg)


def test_missing_assumption_rejected() -> None:
    cfg = copy.deepcopy(merged({}))
    del cfg["dumbbell"]["assumptions"]["red.q_weight"]
    with pytest.raises(config.ConfigError, match=r"'red\.q_weight'"):
        config.validate(cfg)


def test_snakemake_rejects_bad_config_before_any_job(tmp_path: Path) -> None:
    work = copy_repo(tmp_path / "repo")
    (work / "bad.yaml").write_text("dumbbell:\n  grid:\n    buffer: [-5]\n    queue: [FIFO]\n")
    proc = snakemake(work, "--cores", "1", "--configfile", "bad.yaml")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "dumbbell.grid.buffer[0]" in out
    assert "dumbbell.grid.queue[0]" in out and "['DropTail', 'RED', 'CoDel', 'PIE'" in out
    assert not (work / "results").exists()


def test_numbers_as_text_from_snakemake_config_are_accepted() -> None:
    # snakemake --config parses nested values with YAML's BaseLoader: every scalar is text.
    cfg = config.validate(
        merged({"dumbbell": {"seeds": ["1"], "grid": {"buffer": ["5", "10"], "plr": ["0.02"]}}})
    )
    assert cfg["dumbbell"]["grid"]["buffer"] == [5, 10]
    assert cfg["dumbbell"]["grid"]["plr"] == [0.02]
    with pytest.raises(config.ConfigError, match=r"grid.buffer\[0\]: '5.5' is not of type"):
        config.validate(merged({"dumbbell": {"grid": {"buffer": ["5.5"]}}}))


def test_studies_default_to_every_discovered_study() -> None:
    from bufrepro import registry

    cfg = config.validate(base_config())
    assert cfg["studies"] == registry.names()
    assert set(registry.names()) >= {"dumbbell", "hstcp", "ramya", "vegas"}


def test_unknown_study_and_profile_rejected(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match=r"studies\[0\].*allowed: \["):
        config.validate(merged({"studies": ["nosuch"]}))
    with pytest.raises(config.ConfigError, match="config key profile: 'nosuch' is not a profile"):
        config.profile_files("nosuch")


def test_profile_merges_under_the_users_files(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("profile: quick\ndumbbell:\n  seeds: [7]\n")
    cfg = config.load(mine)
    assert cfg["dumbbell"]["seeds"] == [7]
    assert cfg["dumbbell"]["measure"]["duration_s"] == 20  # from config/profiles/quick/


def test_runs_per_job_names_known_studies() -> None:
    with pytest.raises(config.ConfigError, match="runs_per_job"):
        config.validate(merged({"runs_per_job": {"nosuch": 3}}))
    cfg = config.validate(merged({"runs_per_job": {"dumbbell": "7"}}))
    assert cfg["runs_per_job"] == {"dumbbell": 7}


@pytest.mark.parametrize(
    ("text", "says"),
    [(None, "cannot read the config"), ("a: [1, 2", "not YAML"), ("studies: 3\n", "studies")],
)
def test_both_commands_read_a_config_through_one_loader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, says: str
) -> None:
    from bufrepro import cli

    path = tmp_path / "config.yaml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    run = ["run-batch", "--config", str(path), "--scope", "vegas", "--batch", "b0000"]
    for argv, command in (
        ([*run, "--manifest", str(tmp_path / "m.tsv")], "bufrepro"),
        (["verify", str(tmp_path), "--config", str(path), "--seed", "1"], "bufrepro verify"),
    ):
        with pytest.raises(SystemExit) as stop:
            cli.main(argv)
        message = str(stop.value)
        assert message.startswith(f"{command}: {path}: ") and says in message, message
        # An invalid config lists each bad key on a line of its own.
        assert "Traceback" not in message and (text == "studies: 3\n" or "\n" not in message)
