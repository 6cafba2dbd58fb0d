"""`bufrepro advise`: a user's link written as a named experiment, run, and answered."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration
from bufrepro.pipeline.experiments import plan, search

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
INTEGER_KEYS = ("link.mss_bytes", "flows.count", "buffers.coarse", "buffers.refine")
NUMBER_KEYS = ("link.access_share", "flows.web_rate")
# Flags that take no value: given, the key is true.
SWITCH_KEYS = ("aqm.ecn",)


def _advise_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bufrepro advise",
        description="Which buffer does my link need? Runs the link in ns-2 (CoDel, PIE, FQ-CoDel: "
        "ns-3) through the workflow "
        "and answers with a recommendation, its delay cost and its uncertainty (docs/own-link.md).",
    )
    p.add_argument(
        "--config", help="rerun an experiment file written before (experiments/NAME.yaml)"
    )
    p.add_argument("--name", help="the experiment's name (default: from the link's keys)")
    p.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="workflow cores")
    p.add_argument("--no-run", action="store_true", help="write and check the config only")
    for flag, key in FLAG_KEYS.items():
        if key in SWITCH_KEYS:
            p.add_argument(
                flag,
                dest=key.replace(".", "__"),
                action="store_const",
                const=True,
                help=f"config key {key}",
            )
            continue
        p.add_argument(flag, dest=key.replace(".", "__"), help=f"config key {key}")
    return p


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
        raise configuration.ConfigError(f"{flag}: {raw!r} is not a whole number")
    return int(raw)


def _number(raw: str, flag: str) -> float:
    try:
        return float(raw)
    except ValueError:
        raise configuration.ConfigError(f"{flag}: {raw!r} is not a number") from None


def _seeds(raw: str) -> list[int]:
    """'4' -> seeds 1..4; '1,2,5,6' -> those."""
    if not re.fullmatch(r"[0-9]+(,[0-9]+)*", raw.strip()):
        raise configuration.ConfigError(
            f"--seeds: {raw!r}; allowed: a count (4) or a list (1,2,3,4)"
        )
    values = [int(x) for x in raw.split(",")]
    return list(range(1, values[0] + 1)) if len(values) == 1 else values


def default_name(block: Mapping[str, Any]) -> str:
    """A name from the link's keys, e.g. link-10mbit-40ms-3sack-loss1pct."""
    link, flows = block.get("link", {}), block.get("flows", {})
    parts = [
        "link",
        str(link.get("rate", "")),
        str(link.get("rtt", "")),
        f"{flows.get('count', 1)}{flows.get('cc', 'sack')}",
    ]
    if str(link.get("loss", "0")) not in ("0", "0%"):
        parts.append(f"loss{link['loss']}")
    # What else makes the runs differ: the queues (default DropTail, RED), the spread, the seeds.
    parts.append("-".join(str(q) for q in block.get("queues", ["DropTail", "RED"])))
    if "rtt_spread" in flows:
        parts.append(f"spread{flows['rtt_spread']}")
    if block.get("aqm", {}).get("ecn"):
        parts.append("ecn")
    if "seeds" in block:
        seeds = list(block["seeds"])
        same = seeds == list(range(1, len(seeds) + 1))
        parts.append(f"seeds{len(seeds)}" if same else "seeds" + ".".join(map(str, seeds)))
    text = "-".join(parts).lower().replace("%", "pct")
    return re.sub(r"[^a-z0-9.-]+", "", text)


def free_name(name: str, block: Mapping[str, Any], chosen: bool) -> tuple[str, str]:
    """(the name to use, a note): an existing experiments/NAME.yaml with another block is never
    overwritten; a default name takes the next free NAME-2, NAME-3 ..., a chosen one is refused."""
    candidate, k = name, 1
    while True:
        path = Path("experiments") / f"{candidate}.yaml"
        if not path.is_file():
            return candidate, "" if k == 1 else f"{name} holds another config"
        old = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("experiments", {})
        if old.get(candidate) == dict(block):
            return candidate, f"{path} holds the same config: its runs are reused"
        if chosen:
            raise configuration.ConfigError(
                f"--name: experiments/{name}.yaml holds another config; choose another --name, "
                f"or rerun that one with --config experiments/{name}.yaml"
            )
        k += 1
        candidate = f"{name}-{k}"


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
    """The flags that describe the experiment (not --cores, --no-run)."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--cores", "--no-run") or arg.startswith("--cores="):
            skip = arg == "--cores"
            continue
        out.append(arg)
    return out


def write_config(path: Path, name: str, block: Mapping[str, Any], argv: Sequence[str]) -> None:
    """The experiment's config file, which the user keeps and reruns."""
    head = (
        f"# bufrepro experiment {name}, written by: bufrepro advise {' '.join(argv)}\n"
        f"# Rerun: bufrepro advise --config {path}  (or: snakemake --cores 2 --configfile {path})\n"
        "# Keys, defaults and allowed values: config/experiments/link.schema.yaml\n"
    )
    body = yaml.safe_dump({"studies": [], "experiments": {name: dict(block)}}, sort_keys=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(head + body, encoding="utf-8")


def _progress(exp: plan.Resolved, start: float) -> str:
    """The one progress line: runs done of those planned, and an ETA."""
    coarse = plan.stage_points(exp, "coarse")
    refine_known = exp.refine_file.is_file()
    refine = plan.stage_points(exp, "refine") if refine_known else []
    per_buffer = len(coarse) // len(plan.coarse_buffers(exp))
    guess = 0 if refine_known else per_buffer * int(exp.block["buffers"]["refine"])
    points = [*coarse, *refine]
    done = sum((Path(p.run_dir) / "metrics.tsv").is_file() for p in points)
    total = len(points) + guess
    now = time.monotonic() - start
    fresh = sum(
        1
        for p in points
        if (Path(p.run_dir) / "run.json").is_file()
        and (Path(p.run_dir) / "run.json").stat().st_mtime >= made_since(start)
    )
    eta = f"ETA {now / fresh * (total - done):.0f} s" if fresh and done < total else "ETA -"
    stage = "refining" if refine_known else "coarse pass"
    return (
        f"[advise] {done}/{total}{'' if refine_known else '~'} runs ({stage}), {now:.0f} s, {eta}"
    )


_WALL0 = time.time() - time.monotonic()


def made_since(start_monotonic: float) -> float:
    """The wall-clock time of a monotonic instant (to compare with file times)."""
    return _WALL0 + start_monotonic


def _run_workflow(exp: plan.Resolved, path: Path, cores: int) -> tuple[int, float, Path]:
    log = exp.folder / "logs" / "snakemake.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--configfile", str(path)]
    start = time.monotonic()
    tty = sys.stdout.isatty()
    with log.open("w") as fh:
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, stdout=fh, stderr=subprocess.STDOUT)
        while proc.poll() is None:
            time.sleep(0.5)
            if tty:
                print("\r" + _progress(exp, start).ljust(70), end="", flush=True)
    line = _progress(exp, start)
    print(("\r" if tty else "") + line.ljust(70))
    return proc.returncode, time.monotonic() - start, log


def cost_line(exp: plan.Resolved, since: float, wall: float, cores: int) -> str:
    """Runs made now, and the simulator's and parsers' CPU against the wall."""
    made, reused, sim, parse = 0, 0, 0.0, 0.0
    for stage in search.STAGES:
        for p in plan.stage_points(exp, stage):
            meta = Path(p.run_dir) / "run.json"
            reused += meta.is_file() and meta.stat().st_mtime < since
            if meta.is_file() and meta.stat().st_mtime >= since:
                cpu = json.loads(meta.read_text(encoding="utf-8")).get("cpu_s", {})
                made += 1
                sim += float(cpu.get("simulator", 0.0))
                parse += float(cpu.get("parser", 0.0))
    load = os.getloadavg()[0]
    return (
        f"Cost: {made} runs made, {reused} reused (made before, same config and code), in "
        f"{wall:.1f} s wall on {cores} cores (load {load:.1f}); "
        f"ns {sim:.1f} CPU s = {100 * sim / (wall * cores):.0f}% of cores x wall, "
        f"parsers {parse:.1f} CPU s"
    )


def advise(argv: Sequence[str]) -> int:
    """The `bufrepro advise` verb; returns the exit code."""
    args = _advise_parser().parse_args(argv)
    os.chdir(REPO_ROOT)
    try:
        if args.config:
            path = Path(args.config)
            raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            names = list(raw.get("experiments", {}))
            if len(names) != 1:
                raise configuration.ConfigError(
                    f"{path}: names {len(names)} experiments; advise runs one"
                )
            name = names[0]
            cfg = configuration.load(path)
        else:
            if not args.__dict__["link__rate"] or not args.__dict__["link__rtt"]:
                raise configuration.ConfigError(
                    "--rate and --rtt are required (e.g. --rate 10Mbit --rtt 40ms)"
                )
            block = block_from_flags(args)
            name, said = free_name(args.name or default_name(block), block, bool(args.name))
            if said:
                print(f"[advise] {said}")
            path = Path("experiments") / f"{name}.yaml"
            try:
                configuration.validate(
                    {**configuration.load(), "studies": [], "experiments": {name: block}}
                )
            except configuration.ConfigError as err:
                raise configuration.ConfigError(flag_message(str(err), name)) from None
            write_config(path, name, block, _link_flags(argv))
            cfg = configuration.load(path)
    except configuration.ConfigError as err:
        print(f"bufrepro advise: {err}", file=sys.stderr)
        return 2
    print(f"[advise] experiment {name}: config {path}")
    if args.no_run:
        return 0
    since = time.time()
    exp = plan.resolve(cfg, name)
    rc, wall, log = _run_workflow(exp, path, args.cores)
    if rc != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-25:]
        print("\n".join(tail), file=sys.stderr)
        print(f"bufrepro advise: the workflow failed (exit {rc}); its log: {log}", file=sys.stderr)
        return 1
    print((exp.folder / "answer.txt").read_text(encoding="utf-8"), end="")
    print(cost_line(exp, since, wall, args.cores))
    print(f"Page: report/experiments/{name}.html  Table: {exp.folder}/tables/answer.csv")
    return 0
