"""Every argument the Python side passes an ns-3 program is one the program takes.

For each study and experiment on ns-3 and each queue of the ns3 backend's table, the real
built program's `--PrintHelp` lists every `--name` the run's command line gives; each queue's
type is an ns-3 queue disc whose `--PrintAttributes` lists every attribute the table and the
scenarios set on it (FQ-CoDel's Quantum, no attribute in ns-3.37, excepted: ns3/queues.h sets
it on the disc); and the TCP types are ns-3's.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bufrepro.backends.base import RunSpec
from bufrepro.backends.simulators import ns3
from bufrepro.kit import configs
from bufrepro.kit.experiment import run_points
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration, plan
from bufrepro.pipeline.experiments import plan as experiment_plan
from conftest import TINY, merged

QUEUES = list(ns3.QUEUES)
# ns3/queues.h's one attribute that is not ns-3's: FQ-CoDel's quantum, set by SetQuantum.
NOT_ATTRIBUTES = {("ns3::FqCoDelQueueDisc", "Quantum")}
LINK = "args-link"


@pytest.fixture(scope="module")
def prefix() -> Path:
    """The programs, built by ns3/build.sh (reused when current); fails without libns3-dev."""
    if ns3.missing():
        pytest.fail(ns3.missing())
    subprocess.run(["bash", str(REPO_ROOT / "ns3" / "build.sh")], check=True)
    return ns3.prefix({})


@cache
def _printed(program: Path, flag: str) -> str:
    return subprocess.run([str(program), flag], capture_output=True, text=True, check=True).stdout


def _options(program: Path) -> set[str]:
    """The program's own options (--PrintHelp's "Program Options", not ns-3's general ones)."""
    text = _printed(program, "--PrintHelp")
    own = text.split("Program Options:", 1)[1].split("General Arguments:", 1)[0]
    return set(re.findall(r"^\s+--(\w+):", own, re.MULTILINE))


def _attributes(program: Path, type_name: str) -> set[str]:
    """The attributes ns-3 lists for a type, its parents' included."""
    text = _printed(program, f"--PrintAttributes={type_name}")
    return set(re.findall(r"--ns3::\w+::(\w+)=", text))


def _study_specs(study: str, level: str) -> list[RunSpec]:
    over = configs.merge(
        TINY,
        {
            "simulators": {study: ["ns2", "ns3"]},
            "simulator_queues": {study: {"ns3": QUEUES}},
            study: {"trace_level": level},
        },
    )
    cfg = configuration.validate(merged(over))
    return [plan.spec(cfg, p) for b in plan.batches(cfg, study, "ns3") for p in b]


def _link_specs(cc: str = "sack", ecn: bool = False) -> list[RunSpec]:
    """The link's runs on every queue: 3 flows with spread RTTs (the default 0.3), a CBR flow."""
    block: dict[str, Any] = {
        "link": {"rate": "5Mbit", "rtt": "40ms", "loss": "1%"},
        "flows": {"count": 3, "cc": cc, "cbr": "100kbit"},
        "queues": QUEUES,
        "backend": "ns3",
        "aqm": {"ecn": ecn},
        "run": {"warmup": "1s", "measure": "2s"},
        "seeds": [1, 2],
    }
    cfg = configuration.validate(merged({"studies": [], "experiments": {LINK: block}}))
    exp = experiment_plan.resolve(cfg, LINK)
    points = run_points(LINK, exp.kind, [(q, 10) for q in QUEUES], [1])
    return [experiment_plan.spec(exp, p) for p in points]


def test_the_link_passes_spread_rtts_ecn_and_bbrs_pacing() -> None:
    """The new arguments reach the program with their values: each flow's access hop (the
    spread), ECN on the sockets and UseEcn on the AQMs only, pacing for BBR only."""
    plain = [_named(ns3.arguments(s.params)) for s in _link_specs()]
    bbr = [_named(ns3.arguments(s.params)) for s in _link_specs("bbr", ecn=True)]
    for args in plain:
        assert float(args["flowAccessStepMs"]) > 0 and float(args["flowAccessLoMs"]) >= 0
        assert (args["ecn"], args["pacing"], args["tcp"]) == ("false", "false", "ns3::TcpNewReno")
        assert "UseEcn=true" not in args.get("queueAttr", "")
    marking = {"ns3::CoDelQueueDisc", "ns3::PieQueueDisc", "ns3::FqCoDelQueueDisc"}
    for args in bbr:
        assert (args["ecn"], args["pacing"], args["tcp"]) == ("true", "true", "ns3::TcpBbr")
        said = "UseEcn=true" in args.get("queueAttr", "")
        assert said == (args["queue"] in marking), args


def _all_specs() -> list[RunSpec]:
    specs = [s for level in ("full", "tally") for s in _study_specs("dumbbell", level)]
    return specs + _study_specs("hstcp", "counters") + _link_specs() + _link_specs("bbr", True)


def _named(args: list[str]) -> dict[str, str]:
    return dict(a.removeprefix("--").split("=", 1) for a in args)


def test_every_argument_passed_is_an_option_of_the_program(prefix: Path) -> None:
    specs = _all_specs()
    seen: dict[str, set[str]] = {}
    for spec in specs:
        program = prefix / spec.scenario
        passed = _named(ns3.arguments(spec.params))
        unknown = set(passed) - _options(program)
        assert not unknown, f"{spec.scenario} does not take {sorted(unknown)}"
        seen.setdefault(spec.scenario, set()).add(passed["queue"])
    # every program got every queue of the table, and tally's arguments reached dumbbell
    assert seen == {p: {q.type for q in ns3.QUEUES.values()} for p in ("dumbbell", "hstcp", "link")}
    assert any("tEnd" in spec.params for spec in specs)


def test_every_queue_attribute_is_one_of_its_type(prefix: Path) -> None:
    program = prefix / "dumbbell"
    for spec in _all_specs():
        passed = _named(ns3.arguments(spec.params))
        type_name = passed["queue"]
        names = {kv.split("=", 1)[0] for kv in passed.get("queueAttr", "").split(",") if kv}
        have = _attributes(program, type_name)
        assert "MaxSize" in have, f"{type_name} is no queue disc type of ns-3"
        missing = {n for n in names if (type_name, n) not in NOT_ATTRIBUTES} - have
        assert not missing, f"{type_name} has no attribute {sorted(missing)}"


def test_tcp_types_are_ns3s(prefix: Path) -> None:
    types = set(_printed(prefix / "dumbbell", "--PrintTypeIds").split())
    for name in (*ns3.TCP_TYPES.values(), *ns3.RECOVERY_TYPES.values()):
        assert name in types, name
