"""An experiment's config file as `bufrepro advise` writes it: its name, writing, reading."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from bufrepro.pipeline import configuration


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


def write(path: Path, name: str, block: Mapping[str, Any], argv: Sequence[str]) -> None:
    """The experiment's config file, which the user keeps and reruns."""
    head = (
        f"# bufrepro experiment {name}, written by: bufrepro advise {' '.join(argv)}\n"
        f"# Rerun: bufrepro advise --config {path}  (or: snakemake --cores 2 --configfile {path})\n"
        "# Keys, defaults and allowed values: config/experiments/link.schema.yaml\n"
    )
    body = yaml.safe_dump({"studies": [], "experiments": {name: dict(block)}}, sort_keys=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(head + body, encoding="utf-8")


def read(given: str) -> tuple[str, Path, dict[str, Any]]:
    """--config: (its one experiment's name, the file, the validated config)."""
    path = Path(given)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as err:
        raise configuration.ConfigError(
            f"--config: {given}: cannot read it ({err.strerror}); allowed: an experiment file "
            "advise wrote (experiments/NAME.yaml)"
        ) from None
    except yaml.YAMLError:
        raise configuration.ConfigError(f"--config: {given}: not YAML") from None
    named = raw.get("experiments", {}) if isinstance(raw, dict) else {}
    names = list(named) if isinstance(named, dict) else []
    if len(names) != 1:
        raise configuration.ConfigError(
            f"--config: {given} names {len(names)} experiments; advise runs one"
        )
    return names[0], path, configuration.load(path)
