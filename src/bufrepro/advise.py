"""`bufrepro advise`: a user's link written as a named experiment, run, and answered."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration
from bufrepro.pipeline.experiments import experiment_file, plan, price, watch

# Each flag and the block key it sets (errors about the key name the flag).
FLAG_KEYS = {
    "--rate": "link.rate",
    "--rtt": "link.rtt",
    "--loss": "link.loss",
    "--mss": "link.mss_bytes",
    "--access-share": "link.access_share",
    "--flows": "flows.count",
    "--cc": "flows.cc",
    "--window": "flows.window",
    "--rtt-spread": "flows.rtt_spread",
    "--start-jitter": "flows.start_jitter",
    "--web": "flows.web_rate",
    "--cbr": "flows.cbr",
    "--queue": "queues",
    "--simulator": "backend",
    "--aqm-targets": "aqm.targets",
    "--ecn": "aqm.ecn",
    "--red-min-th": "red.min_th",
    "--red-max-th": "red.max_th",
    "--buffer-min": "buffers.min",
    "--buffer-max": "buffers.max",
    "--coarse": "buffers.coarse",
    "--refine": "buffers.refine",
    "--warmup": "run.warmup",
    "--measure": "run.measure",
    "--seeds": "seeds",
    "--within": "targets.within",
    "--max-delay": "targets.max_delay",
    "--max-loss": "targets.max_loss",
    "--budget-cpu": "budget.cpu",
    "--budget-memory": "budget.memory",
}
# The flags a new experiment must give (the schema's defaults serve a config file).
REQUIRED = ("--rate", "--rtt")
INTEGER_KEYS = ("link.mss_bytes", "flows.count", "buffers.coarse", "buffers.refine")
NUMBER_KEYS = ("link.access_share", "flows.web_rate")
# Flags that take no value: given, the key is true.
SWITCH_KEYS = ("aqm.ecn",)


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors in one line (no usage block) and exit 2."""

    def error(self, message: str) -> NoReturn:
        """One sentence on stderr, pointing to --help."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _advise_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="bufrepro advise",
        allow_abbrev=False,
        description="Which buffer does my link need? Runs the link in ns-2 (CoDel, PIE, FQ-CoDel: "
        "ns-3) through the workflow "
        "and answers with a recommendation, its delay cost and its uncertainty (docs/own-link.md).",
    )
    p.add_argument(
        "--config", help="rerun an experiment file written before (experiments/NAME.yaml)"
    )
    p.add_argument(
        "--name", help="the experiment's name (default: from the link's keys and queues)"
    )
    p.add_argument(
        "--cores",
        type=int,
        default=os.cpu_count() or 1,
        help="CPU cores the workflow's runs use (default: every core, here %(default)s)",
    )
    p.add_argument(
        "--no-run",
        action="store_true",
        help="write and check the config, print the planned runs, CPU and wall; run nothing",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the answer as data: one JSON object on stdout, the progress on stderr",
    )
    schema = configuration.kind_schema("link")
    groups: dict[str, Any] = {}
    for flag, key in FLAG_KEYS.items():
        block = key.split(".")[0] if "." in key else "experiment"
        if block not in groups:
            groups[block] = p.add_argument_group(f"{block} (config keys {block}.*)")
            if block == "experiment":
                groups[block].title = "experiment (queues, simulator, seeds)"
        if key in SWITCH_KEYS:
            groups[block].add_argument(
                flag,
                dest=key.replace(".", "__"),
                action="store_const",
                const=True,
                help=flag_help(schema, key),
            )
            continue
        groups[block].add_argument(
            flag,
            dest=key.replace(".", "__"),
            metavar=key.rsplit(".", 1)[-1].upper(),
            help=flag_help(schema, key, flag in REQUIRED),
        )
    return p


def flag_help(schema: Mapping[str, Any], key: str, required: bool = False) -> str:
    """A flag's help from its key in the link schema: its description (meaning and unit) and
    its default as typed on the command line (or that it is required)."""
    node = schema
    for part in key.split("."):
        node = node["properties"][part]
    default = node["default"]
    if isinstance(default, list):
        default = ",".join(str(v) for v in default)
    if isinstance(default, bool):  # a switch: given, the key is true
        shown = "on" if default else "off"
    else:
        shown = "none" if default == "" else str(default)
    tail = "required (unless --config)" if required else f"default: {shown}"
    return f"{str(node['description']).rstrip('.')}; {tail}".replace("%", "%%")


def _set(block: dict[str, Any], key: str, value: Any) -> None:
    node = block
    *parents, last = key.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def block_from_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The experiment block of the flags given (only those: the rest takes its defaults)."""
    block: dict[str, Any] = {"kind": "link"}
    for flag, key in FLAG_KEYS.items():
        raw = getattr(args, key.replace(".", "__"))
        if raw is None:
            continue
        value: Any = raw
        if key in ("queues",):
            value = [q.strip() for q in raw.split(",") if q.strip()]
        elif key == "seeds":
            value = _seeds(raw)
        elif key in INTEGER_KEYS or (key == "flows.window" and raw.isdigit()):
            value = _integer(raw, flag)
        elif key in NUMBER_KEYS or (key == "flows.rtt_spread" and raw != "auto"):
            value = _number(raw, flag)
        _set(block, key, value)
    return block


def _integer(raw: str, flag: str) -> int:
    if not re.fullmatch(r"-?[0-9]+", raw.strip()):
        raise configuration.ConfigError(f"{flag}: {raw!r} is not a whole number (e.g. 3)")
    return int(raw)


def _number(raw: str, flag: str) -> float:
    try:
        return float(raw)
    except ValueError:
        raise configuration.ConfigError(f"{flag}: {raw!r} is not a number") from None


def _seeds(raw: str) -> list[int]:
    """'4' -> seeds 1..4; '1,2,5,6' -> those (at least 2, each at least 1, none twice)."""
    allowed = "allowed: a count of at least 2 (4 for 1,2,3,4) or a list (1,2,3,4)"
    if not re.fullmatch(r"[0-9]+(,[0-9]+)*", raw.strip()):
        raise configuration.ConfigError(f"--seeds: {raw!r} is not a count or a list; {allowed}")
    values = [int(x) for x in raw.split(",")]
    seeds = list(range(1, values[0] + 1)) if len(values) == 1 else values
    if len(seeds) < 2:
        raise configuration.ConfigError(
            f"--seeds: {raw!r} gives {len(seeds)} seed(s), too few for the two seed sets the "
            f"answer is repeated on; {allowed}"
        )
    if min(seeds) < 1 or len(set(seeds)) < len(seeds):
        raise configuration.ConfigError(
            f"--seeds: {raw!r}; allowed: distinct seeds of at least 1 (e.g. 1,2,3,4)"
        )
    return seeds


def with_values_attached(argv: Sequence[str]) -> list[str]:
    """argv with each flag's value attached (--rtt=-5ms): argparse would read a value that
    starts with '-' as a flag; attached, it reaches the check, which says what is allowed."""
    takes = {*FLAG_KEYS, "--config", "--name", "--cores"}
    out, args = [], list(argv)
    while args:
        arg = args.pop(0)
        if arg in takes and args and not args[0].startswith("--"):
            arg = f"{arg}={args.pop(0)}"
        out.append(arg)
    return out


def flag_message(message: str, name: str) -> str:
    """A config error about the experiment's keys, told in flags (--rate for link.rate)."""
    out = []
    for line in message.splitlines():
        for flag, key in FLAG_KEYS.items():
            prefix = f"config key experiments.{name}.{key}"
            if prefix in line:
                line = line.replace(prefix, f"{flag} (config key {key})")
        out.append(line)
    return "\n".join(out)


def _link_flags(argv: Sequence[str]) -> list[str]:
    """The flags that describe the experiment (not --cores, --no-run, --json)."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--cores", "--no-run", "--json") or arg.startswith("--cores="):
            skip = arg == "--cores"
            continue
        out.append(arg)
    return out


def _problems(message: str) -> list[str]:
    """A ConfigError's problems, one a line, without the "invalid configuration:" heading."""
    lines = [line.strip() for line in message.splitlines()]
    return [line for line in lines if line and line != "invalid configuration:"]


def _from_flags(
    args: argparse.Namespace, argv: Sequence[str], say: TextIO
) -> tuple[str, Path, dict[str, Any]]:
    """The flags' experiment, validated, then written to experiments/NAME.yaml."""
    if any(not getattr(args, FLAG_KEYS[f].replace(".", "__")) for f in REQUIRED):
        raise configuration.ConfigError(
            " and ".join(REQUIRED) + " are required (e.g. --rate 10Mbit --rtt 40ms)"
        )
    if args.name is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", args.name):
        raise configuration.ConfigError(
            f"--name: {args.name!r}; allowed: letters, digits, '.', '_' and '-' (a file name)"
        )
    block = block_from_flags(args)
    name, said = experiment_file.free_name(
        args.name or experiment_file.default_name(block), block, bool(args.name)
    )
    path = Path("experiments") / f"{name}.yaml"
    try:
        # The studies' defaults are not validated: advise runs none of them (a machine without
        # ns-3 still advises on ns-2 although the default config runs the dumbbell on ns-3).
        configuration.validate(
            {**configuration.defaults(), "studies": [], "experiments": {name: block}}
        )
    except configuration.ConfigError as err:
        raise configuration.ConfigError(flag_message(str(err), name)) from None
    if said:
        print(f"[advise] {said}", file=say)
    experiment_file.write(path, name, block, _link_flags(argv))
    return name, path, configuration.load(path)


def advise(argv: Sequence[str]) -> int:
    """The `bufrepro advise` verb; returns the exit code. Bad input is refused before anything
    is written or run: one line on stderr per problem, naming the flag, and exit 2."""
    args = _advise_parser().parse_args(with_values_attached(argv))
    os.chdir(REPO_ROOT)
    say = sys.stderr if args.json else sys.stdout  # --json: stdout holds the JSON only
    try:
        if args.cores < 1:
            raise configuration.ConfigError(f"--cores: {args.cores}; allowed: 1 or more")
        if args.config:
            name, path, cfg = experiment_file.read(args.config)
        else:
            name, path, cfg = _from_flags(args, argv, say)
    except configuration.ConfigError as err:
        for line in _problems(str(err)):
            print(f"bufrepro advise: {line}", file=sys.stderr)
        return 2
    print(f"[advise] experiment {name}: config {path}", file=say)
    if args.no_run:
        wrote = {"experiment": name, "config": str(path)}
        print(price.said(plan.resolve(cfg, name), args.cores, wrote, args.json), end="")
        return 0
    since = time.time()
    exp = plan.resolve(cfg, name)
    rc, wall, log = watch.run_workflow(exp, path, args.cores, say)
    if rc != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-25:]
        print("\n".join(tail), file=sys.stderr)
        print(f"bufrepro advise: the workflow failed (exit {rc}); its log: {log}", file=sys.stderr)
        return 1
    cost = watch.cost(exp, since, wall, args.cores)
    where = {
        "config": str(path),
        "page": f"report/experiments/{name}.html",
        "table": f"{exp.folder}/tables/answer.csv",
    }
    if args.json:
        answer = json.loads((exp.folder / "answer.json").read_text(encoding="utf-8"))
        made = {"experiment": name, **where, "answer": answer, "cost": watch.cost_data(cost)}
        print(json.dumps(made, indent=1, allow_nan=False))
    else:
        print((exp.folder / "answer.txt").read_text(encoding="utf-8"), end="")
        print(watch.cost_text(cost, where["page"], where["table"]), end="")
    return 0
