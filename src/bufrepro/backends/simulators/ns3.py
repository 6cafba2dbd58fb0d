"""The ns-3 backend: C++ scenario programs (ns3/*.cc) built against Debian's libns3-dev."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
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


# The ns3 backend's one queue table: each config queue name, the ns-3 queue disc type the
# programs install for it (their --queue) and its default attributes (their --queueAttr, set in
# this order): RFC 8289's CoDel target and interval, RFC 8033's PIE delay reference, RFC 8290's
# FQ-CoDel flows and quantum (no attribute in ns-3.37: ns3/queues.h sets it on the disc), ECN off
# in every AQM; and each AQM again as "<name>-scaled", its delays scaled to the link. A study's
# config is checked against these names before any run; a scenario adds or overrides attributes
# (RED's thresholds are each scenario's; RED's and PIE's MeanPktSize is the scenario's data
# packet, not ns-3.37's 1000 B default).
@dataclass(frozen=True)
class Queue:
    """An ns-3 queue disc: its type, default attributes (name -> value as ns-3 reads it), the
    further attributes a scenario sets on it, and whether its delay targets are scaled to the
    link (scaled_delays)."""

    type: str
    attrs: Mapping[str, str]
    takes: tuple[str, ...] = ()
    scaled: bool = False


# The "-scaled" queues: the RFC defaults' delay targets scaled to the link, as RFC 8290 (section
# 4.3) advises for slow links and Linux's CAKE does (sch_cake.c, cake_set_rate): each target at
# least SCALED_TARGET_PACKETS packet transmission times at the bottleneck, CoDel's interval
# raised by as much as its target and at least twice it; PIE's reference scaled like a target.
# The link experiment's aqm.targets scaled takes the same rule.
SCALED_TARGET_PACKETS = 1.5
DELAYS = ("Target", "QueueDelayReference")


def scaled_target_ms(target_ms: float, packet_ms: float) -> float:
    """A delay target scaled to the link: at least SCALED_TARGET_PACKETS packet times."""
    return max(target_ms, round(SCALED_TARGET_PACKETS * packet_ms, 6))


def scaled_interval_ms(interval_ms: float, target_ms: float, packet_ms: float) -> float:
    """CoDel's interval beside a scaled target: raised by as much as the target was, and at
    least twice the scaled target (CAKE's rule)."""
    scaled = scaled_target_ms(target_ms, packet_ms)
    return round(max(interval_ms + scaled - target_ms, 2 * scaled), 6)


def _ms(text: str) -> float:
    return float(text.removesuffix("ms"))


def _ms_text(ms: float) -> str:
    """A delay as ns-3 reads it, in ms without an exponent: 360ms, 0.24ms."""
    return f"{ms:.6f}".rstrip("0").rstrip(".") + "ms"


def scaled_delays(attrs: Mapping[str, str], packet_ms: float) -> dict[str, str]:
    """A queue's default attributes with its delay targets (Target, QueueDelayReference) and
    CoDel's Interval scaled to a link whose packet takes `packet_ms` (ms)."""
    out = dict(attrs)
    for name in DELAYS:
        if name in attrs:
            out[name] = _ms_text(scaled_target_ms(_ms(attrs[name]), packet_ms))
    if "Interval" in attrs and "Target" in attrs:
        interval = scaled_interval_ms(_ms(attrs["Interval"]), _ms(attrs["Target"]), packet_ms)
        out["Interval"] = _ms_text(interval)
    return out


_RFC: dict[str, Queue] = {
    "DropTail": Queue("ns3::FifoQueueDisc", {}),
    "RED": Queue(
        "ns3::RedQueueDisc",
        {"UseEcn": "false"},
        ("MinTh", "MaxTh", "QW", "LInterm", "Gentle", "AdaptMaxP", "MeanPktSize"),
    ),
    "CoDel": Queue(
        "ns3::CoDelQueueDisc", {"Target": "5ms", "Interval": "100ms", "UseEcn": "false"}
    ),
    "PIE": Queue(
        "ns3::PieQueueDisc",
        {"QueueDelayReference": "15ms", "UseEcn": "false"},
        ("MeanPktSize",),
    ),
    "FQ-CoDel": Queue(
        "ns3::FqCoDelQueueDisc",
        {
            "Target": "5ms",
            "Interval": "100ms",
            "Flows": "1024",
            "Quantum": "1514",
            "UseEcn": "false",
        },
    ),
}
QUEUES: Mapping[str, Queue] = MappingProxyType(
    {
        **_RFC,
        **{
            f"{name}-scaled": Queue(q.type, q.attrs, q.takes, scaled=True)
            for name, q in _RFC.items()
            if any(d in q.attrs for d in DELAYS)
        },
    }
)
# The config's TCP variants and loss recoveries, and the ns-3 types the programs take (--tcp,
# --recovery).
TCP_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "NewReno": "ns3::TcpNewReno",
        "HighSpeed": "ns3::TcpHighSpeed",
        "Cubic": "ns3::TcpCubic",
        "Bbr": "ns3::TcpBbr",
    }
)
RECOVERY_TYPES: Mapping[str, str] = MappingProxyType(
    {"classic": "ns3::TcpClassicRecovery", "prr": "ns3::TcpPrrRecovery"}
)
# A program argument: only validated numbers and enum words reach a scenario program, and the
# tables' ns-3 type names and attribute lists (Name=value,Name=value).
SAFE_VALUE = re.compile(r"^[A-Za-z0-9._+-]+$")
TYPE_NAME = re.compile(r"^ns3::[A-Za-z][A-Za-z0-9]*$")
ATTRIBUTES = re.compile(
    r"^[A-Za-z][A-Za-z0-9]*=[A-Za-z0-9._+-]+(,[A-Za-z][A-Za-z0-9]*=[A-Za-z0-9._+-]+)*$"
)


def _text(value: Any) -> str:
    """A value as a program reads it: booleans as true/false, else str()."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def queue_arguments(
    queue: str, attrs: Mapping[str, Any], packet_ms: float | None = None
) -> dict[str, str]:
    """The programs' --queue and --queueAttr for config queue `queue`: its table entry's type
    and default attributes, updated by those of the scenario's `attrs` the disc takes (its
    defaults' names and its `takes`; other queues' are not passed), in the table's order; a
    "-scaled" queue's delays then scaled to a link whose packet takes `packet_ms` (the rule is
    idempotent: delays already scaled stay)."""
    entry = QUEUES[queue]
    ours = {*entry.attrs, *entry.takes}
    merged = {**entry.attrs, **{k: _text(v) for k, v in attrs.items() if k in ours}}
    if entry.scaled:
        if packet_ms is None:
            raise ValueError(f"queue {queue} scales its targets to the link: give packet_ms")
        merged = scaled_delays(merged, packet_ms)
    out = {"queue": entry.type}
    if merged:  # none: no --queueAttr (ns-3's CommandLine refuses an empty value)
        out["queueAttr"] = ",".join(f"{k}={v}" for k, v in merged.items())
    return out


def tcp_arguments(variant: str, recovery: str = "classic") -> dict[str, str]:
    """The programs' --tcp and --recovery for the config's TCP variant and recovery."""
    return {"tcp": TCP_TYPES[variant], "recovery": RECOVERY_TYPES[recovery]}


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


def _safe(name: str, text: str) -> bool:
    """Whether an argument is a validated number or word, an ns-3 type name or an attribute
    list (only under --queue, --tcp, --recovery and --queueAttr)."""
    if not SAFE_VALUE.match(name):
        return False
    if SAFE_VALUE.match(text):
        return True
    if name in ("queue", "tcp", "recovery"):
        return bool(TYPE_NAME.match(text))
    return name == "queueAttr" and bool(ATTRIBUTES.match(text))


def arguments(params: Mapping[str, Any]) -> list[str]:
    """The program's command line, --name=value in name order; anything else is refused."""
    out = []
    for name, value in sorted(params.items()):
        text = _text(value)
        if not _safe(name, text):
            raise ValueError(
                f"ns3 backend: argument {name}={text!r} is not a number, a word, an ns-3 type "
                "or an attribute list"
            )
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
