"""The ns-3 backend: C++ scenario programs (ns3/*.cc) built against Debian's libns3-dev."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bufrepro.backends.awk import AWK
from bufrepro.backends.base import RunSpec

DONE = re.compile(r"^BUFREPRO_DONE (\S+)$", re.MULTILINE)
# What ns3/build.sh writes beside the programs; the workflow's build_ns3 rule makes it.
BUILD_RECORD = "build.txt"
PACKAGES = "libns3-dev libgsl-dev pkg-config g++"
# The bottleneck queues and TCP variants the scenario programs implement (their --queue and
# --tcp); a study's config is checked against these before any run.
# The config's queue names, and the word each program's --queue takes for it.
QUEUE_ARGS = {
    "DropTail": "DropTail",
    "RED": "RED",
    "CoDel": "CoDel",
    "PIE": "PIE",
    "FQ-CoDel": "FqCoDel",
}
QUEUES = tuple(QUEUE_ARGS)
# A program argument: only validated numbers and enum words reach a scenario program.
SAFE_VALUE = re.compile(r"^[A-Za-z0-9._+-]+$")


def prefix(settings: Mapping[str, Any]) -> Path:
    """Where ns3/build.sh puts the programs (config key backends.ns3.prefix; default .ns3/ of the
    folder the workflow runs in, where build_ns3 writes it, also in a copy of the repository)."""
    return Path(str(settings.get("prefix", "") or Path.cwd() / ".ns3"))


@cache
def library_version() -> str:
    """ns-3's version as pkg-config reports it ("" when the library is not installed)."""
    if shutil.which("pkg-config") is None:
        return ""
    out = subprocess.run(
        ["pkg-config", "--modversion", "ns3-core"], capture_output=True, text=True, check=False
    )
    return out.stdout.strip() if out.returncode == 0 else ""


def missing() -> str:
    """Why ns-3 runs cannot be built here, naming what to install ("" when they can)."""
    absent = [tool for tool in ("pkg-config", "g++") if shutil.which(tool) is None]
    if absent or not library_version():
        return (
            f"the ns-3 library (pkg-config ns3-core) or {', '.join(absent) or 'its tools'} "
            f"not found; install: apt-get install -y {PACKAGES}"
        )
    return ""


def arguments(params: Mapping[str, Any]) -> list[str]:
    """The program's command line, --name=value in name order; anything else is refused."""
    out = []
    for name, value in sorted(params.items()):
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if not SAFE_VALUE.match(name) or not SAFE_VALUE.match(text):
            raise ValueError(f"ns3 backend: argument {name}={text!r} is not a number or a word")
        out.append(f"--{name}={text}")
    return out


@cache
def _record(path: Path) -> tuple[tuple[str, str], ...]:
    if not path.is_file():
        raise FileNotFoundError(f"no ns-3 build record {path}: run bash ns3/build.sh")
    lines = [line.split(" ", 1) for line in path.read_text(encoding="utf-8").splitlines()]
    return tuple((k, v.strip()) for k, v in lines if k)


@cache
def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Ns3:
    """ns-3 (Debian's libns3-dev): one built program per scenario, its stream the ns-2 trace."""

    name = "ns3"
    # Its streams are the ns-2 formats: the same AWK parsers (accepted on acct_ok 1).
    parsers = AWK
    # The program's arguments that switch its stream off (the benchmark's floor).
    untraced: Mapping[str, str] = MappingProxyType({"trace": "none"})
    queues = QUEUES

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.prefix = prefix(settings)

    def program(self, spec: RunSpec) -> Path:
        """The scenario's built program (spec.scenario names it: ns3/<name>.cc)."""
        return self.prefix / spec.scenario

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        """sim.args: the program's command line, one argument a line."""
        return "sim.args", "".join(f"{a}\n" for a in arguments(spec.params))

    def simulate(self, spec: RunSpec) -> list[str]:
        """The program with its arguments, run in the run folder."""
        return [str(self.program(spec)), *arguments(spec.params)]

    def identity(self, spec: RunSpec) -> dict[str, str]:
        """Program path and sha256, ns-3's version and package, the build flags."""
        record = dict(_record(self.prefix / BUILD_RECORD))
        binary = self.program(spec)
        if not binary.is_file():
            raise FileNotFoundError(f"no ns-3 program {binary}: run bash ns3/build.sh")
        return {
            "simulator_binary": str(binary),
            "simulator_package": record.get("package", ""),
            "simulator_sha256": _sha256(binary),
            "simulator_version": f"ns-3.{record.get('ns3', '').removeprefix('3.')}",
            "build_flags": record.get("flags", ""),
            "simulator": self.name,
        }

    def finish_time(self, stdout: str) -> float | None:
        """The time of the program's 'BUFREPRO_DONE <t>' line."""
        match = DONE.search(stdout)
        return float(match.group(1)) if match else None

    def missing(self) -> str:
        """Why ns-3 runs cannot be built here (the module's missing())."""
        return missing()

    def server(self, spec: RunSpec) -> list[str]:
        """No run server: each run a process of its own."""
        return []

    def scenario_files(self, scenario: str) -> list[str]:
        """None: a program's sources are build_ns3's inputs, its build record a run's (requires)."""
        return []

    def requires(self, options: Mapping[str, str]) -> list[str]:
        """The build record: the programs are built before any run (relative when in the repo)."""
        record = self.prefix / BUILD_RECORD
        if record.is_relative_to(Path.cwd()):
            return [str(record.relative_to(Path.cwd()))]
        return [str(record)]


def make(settings: Mapping[str, Any]) -> Ns3:
    """The ns-3 backend made from its settings (config key backends.ns3, ns3.settings.yaml)."""
    return Ns3(settings)
