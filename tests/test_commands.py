"""`bufrepro --help` lists the user's commands first; the job verbs the rules call still work."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bufrepro.commands import table
from conftest import REPO


def _bufrepro(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


def _rule_verbs() -> set[str]:
    """Every verb a Snakemake rule or a script calls through bufrepro.cli."""
    found = set()
    for path in [*REPO.joinpath("rules").rglob("*.smk"), *REPO.joinpath("scripts").glob("*.sh")]:
        found |= set(re.findall(r"-m bufrepro\.cli ([a-z][a-z-]+)", path.read_text()))
    return found


def test_the_help_lists_the_users_commands_first_and_not_the_jobs() -> None:
    for args in (["--help"], []):
        proc = _bufrepro(*args)
        assert proc.returncode == 0, proc.stderr
        text = proc.stdout
        assert text.startswith("usage: bufrepro <command>"), text
        listed = re.findall(r"^  ([a-z-]+)  ", text, flags=re.MULTILINE)
        assert listed[:3] == ["advise", "reproduce", "verify"], listed
        assert listed == list(table.USER_COMMANDS)
        for verb in ("run-batch", "aggregate", "experiment-answer", "readings-calibrate"):
            assert verb not in text  # the workflow's jobs are under `bufrepro job`
        assert "python -m" not in text
        assert all(len(line) <= 100 for line in text.splitlines())


def test_every_verb_the_rules_call_is_a_job_listed_under_job() -> None:
    called = _rule_verbs()
    assert {"run-batch", "aggregate", "experiment-answer", "show", "progress"} <= called
    assert called <= set(table.verbs())
    listing = _bufrepro("job", "--help")
    assert listing.returncode == 0 and listing.stdout.startswith("usage: bufrepro job")
    for verb in called:
        assert f"    {verb}" in listing.stdout, verb
        # Each answers under its own name, with or without `job`, as `bufrepro`.
        for args in ([verb, "--help"], ["job", verb, "--help"]):
            proc = _bufrepro(*args)
            assert proc.returncode == 0, (args, proc.stderr)
            assert proc.stdout.startswith(f"usage: bufrepro {' '.join(args[:-1])} ")


def test_an_unknown_command_gets_one_sentence() -> None:
    proc = _bufrepro("advice")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "bufrepro: unknown command 'advice'; allowed: advise, reproduce, verify, show, bench, "
        "job (bufrepro --help)"
    ]


def test_reproduce_points_to_the_script() -> None:
    proc = _bufrepro("reproduce", "--help")
    assert proc.returncode == 0
    assert "scripts/reproduce.sh" in proc.stdout
    assert (REPO / "scripts" / "reproduce.sh").is_file()


def test_reproduce_help_after_its_arguments_does_not_run_it() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", "reproduce", "2", "--configfile", "x", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("usage: bufrepro reproduce")
    assert "[reproduce]" not in proc.stdout + proc.stderr  # the script never started


def test_every_command_module_is_in_the_table_and_each_user_command_has_its_line() -> None:
    """One way to add a verb: its module's COMMANDS, gathered by the table; a module left out
    of the table, or a user's command without its line, fails here."""
    import importlib
    import pkgutil

    from bufrepro import commands

    tabled = set(table.COMMANDS)
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"bufrepro.commands.{info.name}")
        assert set(getattr(module, "COMMANDS", ())) <= tabled, info.name
    names = table.verbs()
    assert len(names) == len(set(names))
    assert {c.name for c in table.COMMANDS if c.user} | {"job"} == set(table.USER_COMMANDS)


def test_a_verb_reading_its_own_words_gets_every_one(tmp_path: Path) -> None:
    """verify takes its own flags (pipeline.verify_cli) through the table: a tree that is not
    there is one sentence, with or without `job`."""
    for args in (["verify", str(tmp_path / "none")], ["job", "verify", str(tmp_path / "none")]):
        proc = _bufrepro(*args)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr == f"bufrepro verify: {tmp_path / 'none'}: no such results tree\n"
