"""Every shell command the README, docs/ and the SLURM and container pages show runs here:
marked `<!-- test: dry-run -->` as a dry run (Snakemake's -n; a script's syntax and the Snakemake
run it starts; a Python command's --help, holding every flag used; the command a `docker run`
gives the image, as it would run in the repository), marked `<!-- test: run -->` for real. A
renamed script, rule, config file or flag fails. Unmarked shell blocks fail;
`<!-- test: skip (why) -->` says why not."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from docs_markup import REPO, SHELLS, Block, blocks, pages

from conftest import copy_repo, snakemake

PY = sys.executable
VENV_BIN = str(Path(PY).parent)


@dataclass
class Step:
    """One process to run: its arguments, where (the repo copy, or the repo for pytest's
    collection, which the copy leaves out), and the flags its output must mention."""

    argv: list[str]
    in_repo: bool = False
    flags: list[str] = field(default_factory=list)


class Untestable(Exception):
    """No dry run is known for this command: the docs must mark its block skip, with why."""


def flags_of(args: list[str]) -> list[str]:
    return [a.split("=", 1)[0] for a in args if a.startswith("--")]


def leading(args: list[str]) -> list[str]:
    """The subcommand words before the first option."""
    out: list[str] = []
    for a in args:
        if a.startswith("-"):
            break
        out.append(a)
    return out


# Options of `docker run` / `podman run` that take a value (the pages use these).
CONTAINER_VALUE_OPTIONS = {"-v", "--volume", "-e", "--env", "-u", "--user", "-w", "--workdir"}


def inner_command(args: list[str]) -> list[str]:
    """The command a `docker|podman run` gives its image in place of the image's own (the words
    after the options and the image); [] when it gives none."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in CONTAINER_VALUE_OPTIONS else 1
    return args[i + 1 :]


def steps(words: list[str], mode: str) -> list[Step]:
    """What running (mode "run") or dry-running one documented command means."""
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
        words = words[1:]  # environment settings do not change what is checked
    if words[:2] in (["source", ".venv/bin/activate"], [".", ".venv/bin/activate"]):
        return []
    prog, args = words[0].removeprefix(".venv/bin/"), words[1:]
    if prog in ("docker", "podman") and args[:1] == ["run"] and mode == "dry-run":
        inner = inner_command(args[1:])  # the image holds the repository: dry-run its command
        if inner:
            return steps(inner, mode)
    if prog in ("python", "python3") and args[:1] == ["-m"]:
        mod, rest = args[1], args[2:]
        if mode == "run":
            return [Step([PY, "-m", mod, *rest])]
        return [Step([PY, "-m", mod, *leading(rest), "--help"], flags=flags_of(rest))]
    if prog in ("python", "python3") and args and args[0].endswith(".py"):
        if not (REPO / args[0]).is_file():
            raise FileNotFoundError(args[0])
        if mode == "run":
            return [Step([PY, *args])]
        return [Step([PY, "-m", "py_compile", args[0]])]
    if prog == "snakemake":
        if mode == "run":
            return [Step([PY, "-m", "snakemake", *args])]
        if "--report" in args:  # a report needs a finished run: plan the same config instead
            i = args.index("--report")
            args = args[:i] + args[i + 2 :]
        return [Step([PY, "-m", "snakemake", *args, "-n"])]
    if prog == "bufrepro":  # the console script: a dry run writes and checks the config only
        if mode == "run":
            return [Step([str(Path(VENV_BIN) / "bufrepro"), *args])]
        if args[:1] == ["advise"]:
            return [Step([str(Path(VENV_BIN) / "bufrepro"), *args, "--no-run"])]
        return [
            Step([str(Path(VENV_BIN) / "bufrepro"), *leading(args), "--help"], flags=flags_of(args))
        ]
    if prog in ("pytest", "mkdocs"):
        if mode == "run":
            return [Step([PY, "-m", prog, *args], in_repo=prog == "pytest")]
        if prog == "pytest":
            return [Step([PY, "-m", "pytest", "--collect-only", "-q", *args], in_repo=True)]
        return [Step([PY, "-m", "mkdocs", *leading(args), "--help"], flags=flags_of(args))]
    if prog == "bash" and args and args[0].endswith(".sh"):
        script, rest = args[0], args[1:]
        if not (REPO / script).is_file():
            raise FileNotFoundError(script)
        if mode == "run":
            return [Step(["bash", script, *rest])]
        out = [Step(["bash", "-n", script], in_repo=True)]  # a syntax check reads the script
        if script == "scripts/reproduce.sh":  # CORES, then Snakemake's arguments
            cores = rest[0] if rest and rest[0].isdigit() else "2"
            rest = rest[1:] if rest and rest[0].isdigit() else rest
            out.append(Step([PY, "-m", "snakemake", "-n", "--cores", cores, *rest]))
        elif script == "scripts/test.sh" and rest:  # pytest's arguments
            out.append(Step([PY, "-m", "pytest", "--collect-only", "-q", *rest], in_repo=True))
        return out
    raise Untestable(" ".join(words))


@dataclass(frozen=True)
class Case:
    block: Block
    words: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.block.page}:{self.block.line}: {' '.join(self.words)}"


def shell_blocks() -> Iterator[Block]:
    for page in pages():
        yield from (b for b in blocks(page) if b.info in SHELLS)


CASES = [
    Case(b, tuple(w)) for b in shell_blocks() if b.mode in ("run", "dry-run") for w in b.commands()
]


def test_every_fenced_block_says_its_language() -> None:
    bare = [f"{b.page}:{b.line}" for p in pages() for b in blocks(p) if not b.info]
    assert not bare, f"fenced blocks without an info string (text, sh, yaml, ...): {bare}"


def test_every_shell_block_is_marked() -> None:
    unmarked = [f"{b.page}:{b.line} ({b.marker!r})" for b in shell_blocks() if not b.mode]
    assert not unmarked, (
        "shell blocks need <!-- test: dry-run -->, <!-- test: run --> or "
        f"<!-- test: skip (why) --> on the line before: {unmarked}"
    )


def test_the_docs_have_tested_commands() -> None:
    assert len(CASES) >= 10, [str(c) for c in CASES]


@pytest.fixture(scope="session")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository holding what a finished quick run leaves for the follow-ups:
    results/config.validated.yaml."""
    repo = copy_repo(tmp_path_factory.mktemp("docs") / "repo")
    made = snakemake(
        repo, "--cores", "1", "results/config.validated.yaml", "--configfile", "config/quick.yaml"
    )
    assert made.returncode == 0, made.stderr[-3000:]
    return repo


_DONE: dict[tuple[str, tuple[str, ...]], str] = {}


def check(words: list[str], mode: str, work: Path) -> str:
    """Run a command's steps; "" when all pass, else what failed."""
    key = (mode, tuple(words))
    if key in _DONE:
        return _DONE[key]
    env = {**os.environ, "PATH": f"{VENV_BIN}:{os.environ['PATH']}"}
    problem = ""
    try:
        planned = steps(words, mode)
    except Untestable as e:
        problem = f"no dry run is known for `{e}`: mark its block <!-- test: skip (why) -->"
        planned = []
    except FileNotFoundError as e:
        problem = f"no such file: {e}"
        planned = []
    for step in planned:
        proc = subprocess.run(
            step.argv,
            cwd=REPO if step.in_repo else work,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        lost = [f for f in step.flags if f not in proc.stdout]
        if proc.returncode != 0 or lost:
            tail = (proc.stdout + proc.stderr)[-2000:]
            problem = f"{step.argv[1:]} exit {proc.returncode}, flags not known {lost}:\n{tail}"
            break
    _DONE[key] = problem
    return problem


@pytest.mark.parametrize("case", CASES, ids=str)
def test_documented_command_runs(case: Case, work: Path) -> None:
    problem = check(list(case.words), case.block.mode, work)
    assert not problem, f"{case}\n{problem}"


@pytest.mark.parametrize(
    "words",
    [
        ["bash", "scripts/bench_hstcp.sh", "--reps", "3"],  # a script that is gone
        [".venv/bin/python", "-m", "bufrepro.cli", "bench", "--runz", "8"],  # a renamed flag
        ["snakemake", "--cores", "1", "no_such_rule"],  # a renamed rule
        ["snakemake", "--configfile", "config/quick2.yaml"],  # a renamed config file
        ["docker", "run", "bufrepro"],  # a command with no known dry run
        [  # a renamed config file, in the command given to the image
            "docker",
            "run",
            "--rm",
            "-v",
            "o:/out",
            "bufrepro",
            "snakemake",
            "--configfile",
            "x.yaml",
        ],
        ["bufrepro", "advise", "--rate", "10Mb", "--rtt", "40ms"],  # a unit the advisor refuses
    ],
    ids=["script", "flag", "rule", "configfile", "untestable", "in-image", "advise-unit"],
)
def test_a_stale_command_fails(words: list[str], work: Path) -> None:
    assert check(words, "dry-run", work)
