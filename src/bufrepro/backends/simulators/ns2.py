"""The ns-2 backend: Jinja2 TCL scenarios, Debian's ns or the patched build, a streamed trace."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from bufrepro.backends import tally
from bufrepro.backends.awk import AWK
from bufrepro.backends.base import RunFailed, RunSpec
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.kit.templates import environment

TEMPLATE_DIR = REPO_ROOT / "tcl"
BUILD_RECORD = "results/ns2/ns-patched.json"
DONE = re.compile(r"^BUFREPRO_DONE (\S+)$", re.MULTILINE)
# A study's backend option "build": Debian's ns, the patched build, or Debian's ns unless the
# scenario counts in ns (trace_level tally: the patched build's WiredTally).
BUILDS = ("stock", "patched", "tally")
# The patched build's run server: its start-up paid once, each run a forked child (servers.py).
SERVER_SCRIPT = REPO_ROOT / "ns2" / "serve.tcl"
# The bottleneck queues the scenarios use (ns-2.35 has no CoDel, PIE or FQ-CoDel).
QUEUES = ("DropTail", "RED")


@cache
def _identity(binary: str) -> tuple[tuple[str, str], ...]:
    path = shutil.which(binary)
    if path is None:
        raise FileNotFoundError(
            f"ns binary {binary!r} not found (Debian's ns: apt-get install ns2; the patched "
            "ns-patched: bash ns2/build.sh)"
        )
    probe = subprocess.run(
        [path], input="puts [ns-version]\nexit 0\n", capture_output=True, text=True, check=False
    )
    version = probe.stdout.strip()
    if probe.returncode != 0 or not version:
        # Provenance is part of the run: a run whose simulator cannot say its version fails.
        raise RunFailed(
            f"the ns-version probe of {path} failed (exit {probe.returncode}, "
            f"output {version[:80]!r}): reproduce with: echo 'puts [ns-version]' | {path}"
        )
    version_file = Path(path + ".version")
    if version_file.is_file():
        lines = version_file.read_text(encoding="utf-8").splitlines()
        patches = next((x.split()[1] for x in lines if x.startswith("patches-sha256 ")), "")
        package = f"{lines[0]} patches {patches[:12]}"
    else:
        package = (
            subprocess.run(
                ["dpkg-query", "-W", "-f=${Package} ${Version}", "ns2"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            or "not a Debian package"
        )
    sha = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return (
        ("simulator_binary", path),
        ("simulator_package", package),
        ("simulator_sha256", sha),
        ("simulator_version", version.splitlines()[0] if version else ""),
    )


class Ns2:
    """ns-2.35: Debian's `ns`, or ns2/build.sh's patched build for studies that ask for it."""

    name = "ns2"
    # Its streams' parsers: gawk over awk/ (the run is accepted on acct_ok 1).
    parsers = AWK
    queues = QUEUES

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.stock = str(settings.get("binary", "ns"))
        prefix = str(settings.get("prefix", "") or REPO_ROOT / ".ns2")
        self.patched = f"{prefix}/bin/ns-patched"
        self.serve = bool(settings.get("serve", True))

    def binary(self, options: Mapping[str, str]) -> str:
        """The ns executable for a study's backend options: {"build": B} with B in BUILDS.

        "tally": Debian's ns, except for scenarios that count in ns (run_binary), which need
        the patched build; the workflow builds it first for such a study (requires).
        """
        build = options.get("build", "stock")
        if build not in BUILDS:
            raise ValueError(f"ns2 backend: build {build!r}; allowed: {', '.join(BUILDS)}")
        return self.patched if build == "patched" else self.stock

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        """sim.tcl rendered from the study's template."""
        template = environment(TEMPLATE_DIR).get_template(spec.scenario)
        return "sim.tcl", template.render(**spec.params)

    def run_binary(self, spec: RunSpec) -> str:
        """The run's ns: the patched build for a scenario that writes a parsed stream (trace_level
        tally or full: WiredTally, StreamSum's end line)."""
        return self.patched if tally.needs_patched(spec.params) else self.binary(spec.options)

    def simulate(self, spec: RunSpec) -> list[str]:
        """ns sim.tcl, run in the run folder."""
        return [self.run_binary(spec), "sim.tcl"]

    def server(self, spec: RunSpec) -> list[str]:
        """The patched build's run server (SERVER_SCRIPT) for a run on the patched build, unless
        backends.ns2.serve is false: ns starts once per job thread and forks each run; else []."""
        if self.serve and self.run_binary(spec) == self.patched:
            return [self.patched, str(SERVER_SCRIPT)]
        return []

    def identity(self, spec: RunSpec) -> dict[str, str]:
        """Binary path, Debian package (or patched build), sha256 and ns-version."""
        return {**dict(_identity(self.run_binary(spec))), "simulator": self.name}

    def missing(self) -> str:
        """Nothing is checked ahead: a run without its ns names what to install (_identity)."""
        return ""

    def finish_time(self, stdout: str) -> float | None:
        """The time of the scenario's 'BUFREPRO_DONE <t>' line."""
        match = DONE.search(stdout)
        return float(match.group(1)) if match else None

    def scenario_files(self, scenario: str) -> list[str]:
        """The template's folder and the shared tcl/lib/ (what its {% include %}s may read)."""
        found = [
            *(TEMPLATE_DIR / scenario).parent.glob("*.j2"),
            *(TEMPLATE_DIR / "lib").glob("*.j2"),
        ]
        return sorted(str(f.relative_to(REPO_ROOT)) for f in found)

    def requires(self, options: Mapping[str, str]) -> list[str]:
        """The patched build's record for studies that may run it; nothing otherwise."""
        return [BUILD_RECORD] if options.get("build") in ("patched", "tally") else []


def make(settings: Mapping[str, Any]) -> Ns2:
    """The ns-2 backend made from its settings (config key backends.ns2, ns2.settings.yaml)."""
    return Ns2(settings)
