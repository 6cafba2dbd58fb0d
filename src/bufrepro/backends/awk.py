"""The AWK parsers both ns backends declare: gawk over awk/, their digests, acct_ok 1."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bufrepro.kit.paths import REPO_ROOT

AWK_DIR = REPO_ROOT / "awk"
# Parsers run in the C locale (fast, and '.' decimals) and find awk/lib/ for their @include.
PARSER_ENV = {"LC_ALL": "C", "AWKPATH": str(AWK_DIR / "lib")}
# The line a run's parser prints when every accounting and stream check passed.
ACCEPTED = "acct_ok\t1"


def parser_command(program: str, args: Mapping[str, Any], inputs: Sequence[str]) -> list[str]:
    """gawk running awk/<program> with -v name=value for each argument, over the inputs."""
    cmd = ["gawk", "-f", str(AWK_DIR / program)]
    for key, value in args.items():
        cmd += ["-v", f"{key}={value}"]
    return [*cmd, *inputs]


@cache
def _sha256_file(path: Path) -> str:
    """A parser file's digest, read once per process (a batch job hashes it for every run)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@cache
def _library_digest() -> str:
    """The awk/lib/*.awk digests in name order, listed and read once per process."""
    return "".join(_sha256_file(lib) for lib in sorted((AWK_DIR / "lib").glob("*.awk")))


class Awk:
    """The parsers of awk/ (a Parsers of backends.base): what a run's metrics depend on and
    when its parser's output is accepted."""

    env: Mapping[str, str] = MappingProxyType(PARSER_ENV)

    def command(self, program: str, args: Mapping[str, Any], inputs: Sequence[str]) -> list[str]:
        """gawk running awk/<program> over the inputs."""
        return parser_command(program, args, inputs)

    def files(self, programs: Sequence[str]) -> list[str]:
        """awk/<program> of each, then the library awk/lib/*.awk they may @include."""
        library = sorted((AWK_DIR / "lib").glob("*.awk"))
        return [f"awk/{p}" for p in programs] + [str(f.relative_to(REPO_ROOT)) for f in library]

    def digest(self, programs: Sequence[str]) -> str:
        """The programs' names and digests, then awk/lib's (every @include they may read)."""
        own = "".join(f"{p}{_sha256_file(AWK_DIR / p)}" for p in programs)
        return own + _library_digest()

    def problems(self, lines: Sequence[str]) -> list[str]:
        """Why the parsers' output lines are not accepted: no acct_ok 1 (their checks failed)."""
        if ACCEPTED in lines:
            return []
        return ["the accounting check did not pass (no acct_ok 1)"]


AWK = Awk()
