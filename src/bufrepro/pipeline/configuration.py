"""The whole configuration: every discovered study's schema and files, profiles, validation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from bufrepro import backends, registry
from bufrepro.kit import configs, grid
from bufrepro.kit.configs import ConfigError
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import plan

CONFIG_DIR = REPO_ROOT / "config"
SCHEMA_PATH = CONFIG_DIR / "config.schema.yaml"
# Top-level keys of earlier versions, now a backend's own settings (config key backends.<b>).
MOVED = {
    "ns_binary": "backends.ns2.binary",
    "ns2_prefix": "backends.ns2.prefix",
    "ns2_serve": "backends.ns2.serve",
    "ns3_prefix": "backends.ns3.prefix",
}

__all__ = [
    "ConfigError",
    "default_files",
    "load",
    "profile_files",
    "read_validated",
    "schema",
    "validate",
]


def schema() -> dict[str, Any]:
    """The top-level schema with each discovered study's schema (config/<study>.schema.yaml)."""
    top: dict[str, Any] = configs.read_yaml(SCHEMA_PATH)
    names = registry.names()
    top["properties"]["studies"]["items"] = {"enum": names}
    top["properties"]["studies"]["default"] = names
    top["properties"]["runs_per_job"]["propertyNames"] = {"enum": names}
    sims = backends.names()
    queues = backends.every_queue()
    top["properties"]["simulators"]["additionalProperties"]["items"] = {"enum": sims}
    top["properties"]["backends"]["properties"] = {b: backends.schema(b) for b in sims}
    per_backend = top["properties"]["simulator_queues"]["additionalProperties"]
    per_backend["additionalProperties"]["items"] = {"enum": queues}
    defs = top.setdefault("$defs", {})
    for name in names:
        study_schema = backends.study_schema(CONFIG_DIR / f"{name}.schema.yaml")
        study_schema.pop("$schema", None)
        defs.update(study_schema.pop("$defs", {}))
        defs[name] = study_schema
        top["properties"][name] = {"$ref": f"#/$defs/{name}", "default": {}}
    return top


def default_files() -> list[Path]:
    """config/config.yaml, then each discovered study's config/<study>.yaml."""
    return [CONFIG_DIR / "config.yaml", *(CONFIG_DIR / f"{n}.yaml" for n in registry.names())]


def profile_files(profile: str) -> list[Path]:
    """A profile's files: config/profiles/<profile>/<study>.yaml, for the studies that have one."""
    if not profile:
        return []
    folder = CONFIG_DIR / "profiles" / profile
    if not folder.is_dir():
        known = sorted(p.name for p in (CONFIG_DIR / "profiles").iterdir() if p.is_dir())
        raise ConfigError(f"config key profile: {profile!r} is not a profile; allowed: {known}")
    return [folder / f"{n}.yaml" for n in registry.names() if (folder / f"{n}.yaml").is_file()]


def kind_schema(kind: str) -> dict[str, Any]:
    """An experiment kind's block schema (config/experiments/<kind>.schema.yaml)."""
    found: dict[str, Any] = configs.read_yaml(CONFIG_DIR / "experiments" / f"{kind}.schema.yaml")
    return found


def _experiment_problems(cfg: Mapping[str, Any]) -> list[str]:
    """Each experiment block against its kind's schema, then the kind's own check."""
    problems: list[str] = []
    for name, block in cfg.get("experiments", {}).items():
        where = f"experiments.{name}"
        kind = str(block.get("kind", "link"))
        if kind not in registry.kinds():
            problems.append(
                f"config key {where}.kind: {kind!r}; allowed: {sorted(registry.kinds())}"
            )
            continue
        try:
            checked = configs.validate(block, kind_schema(kind))
        except ConfigError as err:
            problems += [
                line.strip().replace("config key ", f"config key {where}.", 1)
                for line in str(err).splitlines()[1:]
            ]
            continue
        problems += [f"config key {p}" for p in registry.kind(kind).check(where, checked)]
    if not cfg["studies"] and not cfg.get("experiments"):
        problems.append("config key studies: empty and no experiments named: nothing to do")
    return problems


def _with_experiment_defaults(config: Mapping[str, Any]) -> dict[str, Any]:
    """`config` with each well-formed experiment block's kind defaults filled in."""
    out = dict(config)
    named = config.get("experiments")
    if not isinstance(named, Mapping):
        return out
    filled = {}
    for name, block in named.items():
        if isinstance(block, Mapping) and str(block.get("kind", "link")) in registry.kinds():
            schema_ = kind_schema(str(block.get("kind", "link")))
            block = configs.coerce_text(dict(block), schema_, schema_)
            configs.fill_defaults(block, schema_, schema_)
        filled[name] = block
    out["experiments"] = filled
    return out


def _semantic(cfg: Mapping[str, Any]) -> list[str]:
    """Problems the schema cannot see: each study's own check, and a reason per unstated key;
    each experiment's block against its kind."""
    problems: list[str] = _experiment_problems(cfg)
    for name in cfg["studies"]:
        study = registry.get(name)
        block = cfg[name]
        runs = grid.size(block.get("grid"), block.get("seeds"))
        if runs > cfg["max_planned_runs"]:
            return [
                f"config key {name}.grid: the plan would make {runs:,} runs (grid values times "
                f"seeds), more than max_planned_runs {cfg['max_planned_runs']:,}; narrow the "
                f"grid or the seeds, or to go on raise the limit: --config max_planned_runs={runs}"
            ]
        problems += study.check(block)
        assumptions = block.get("assumptions", {})
        problems += [
            f"config key {name}.assumptions: no reason given for unstated parameter '{k}'"
            for k in study.unstated
            if k not in assumptions
        ]
        problems += [
            f"config key {name}.assumptions.{k}: names no key of the {name} block"
            for k in assumptions
            if not configs.has_key(block, k)
        ]
    return problems + _simulator_problems(cfg)


def _simulator_problems(cfg: Mapping[str, Any]) -> list[str]:
    """Each study's simulators (config key simulators): known to the study, its own included,
    installed here, and able to run its grid's queues and settings."""
    problems: list[str] = []
    chosen = cfg.get("simulators", {})
    for name in chosen:
        if name not in registry.names():
            problems.append(
                f"config key simulators.{name}: no such study; allowed: {registry.names()}"
            )
    for name in cfg["studies"]:
        study = registry.get(name)
        own = study.own_simulator()
        sims = list(chosen.get(name) or [own])
        allowed = list(study.simulators())
        problems += [
            f"config key simulators.{name}: {b} is not a backend of {name}; allowed: {allowed}"
            for b in sims
            if b not in allowed
        ]
        if own not in sims:
            problems.append(
                f"config key simulators.{name}: must include {own}, the study's own "
                f"backend (its published comparison); allowed: {allowed}"
            )
        # A further simulator's queues and grid apply where it runs: a config that narrows
        # simulators.<study> to the study's own backend need not clear them.
        queues = cfg.get("simulator_queues", {}).get(name, {})
        problems += [
            f"config key simulator_queues.{name}.{b}: {b} is the study's own backend, whose "
            f"queues are config key {name}.grid.queue"
            for b in queues
            if b == own
        ]
        problems += _grid_problems(cfg, name, sims, own, list(study.grid_keys))
        for b in (b for b in sims if b in allowed):
            block = plan.simulator_block(cfg, name, b) if b != own else cfg[name]
            problems += _backend_problems(name, block, b, allowed, queues.get(b))
            problems += study.declarations()[b].check(block)
    return problems


def _grid_problems(
    cfg: Mapping[str, Any], name: str, sims: list[str], own: str, keys: list[str]
) -> list[str]:
    """simulator_grid.<study>: further simulators only, the study's grid keys but queue, seeds
    (a backend the study does not run on is left alone, as in simulator_queues)."""
    allowed = [k for k in keys if k != "queue"] + ["seeds"]
    problems = []
    for b, chosen in cfg.get("simulator_grid", {}).get(name, {}).items():
        if b == own:
            problems.append(
                f"config key simulator_grid.{name}.{b}: {b} is the study's own backend, whose "
                f"grid is config key {name}.grid"
            )
            continue
        problems += [
            f"config key simulator_grid.{name}.{b}.{k}: not allowed; allowed: {allowed}"
            + (f" (queues: simulator_queues.{name}.{b})" if k == "queue" else "")
            for k in chosen
            if k not in allowed
        ]
    return problems


def _backend_problems(
    name: str, block: Mapping[str, Any], b: str, sims: list[str], own_queues: Any = None
) -> list[str]:
    """The grid's queues against what backend b implements; b installed here."""
    problems = []
    have = backends.queues(b)
    grid = block.get("grid")
    key = f"simulator_queues.{name}.{b}" if own_queues else f"{name}.grid.queue"
    for queue in grid.get("queue", []) if isinstance(grid, Mapping) else []:
        if have and queue not in have:
            others = [o for o in backends.names() if queue in backends.queues(o)]
            problems.append(
                f"config key {key}: {queue} is not available on the {b} backend "
                f"(allowed: {', '.join(have)}); {', '.join(others) or 'no backend'} has it "
                f"(config key simulators.{name}, allowed: {sims})"
            )
    why = backends.missing(b)
    if why:
        problems.append(f"config key simulators.{name}: {b} cannot run here: {why}")
    return problems


def validate(config: Mapping[str, Any]) -> dict[str, Any]:
    """A defaulted copy of `config`, or ConfigError naming every bad key and what is allowed."""
    moved = [f"config key {old} is no longer read; set {new}" for old, new in MOVED.items()]
    problems = [line for old, line in zip(MOVED, moved, strict=True) if old in config]
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))
    return configs.validate(_with_experiment_defaults(config), schema(), _semantic)


def check_files(paths: Iterable[str | Path]) -> None:
    """Each config file read strictly (configs.read_config: YAML, a mapping, no duplicated key)
    and no boolean key given as text (YAML 1.1's no/on, a quoted 'no'); ConfigError naming the
    file and the key. Snakemake reads the files itself, forgivingly: the workflow calls this
    first with every file it read (rules/common.smk)."""
    top = schema()
    problems = []
    for path in paths:
        found = configs.boolean_text(configs.read_config(Path(path)), top, top)
        problems += [f"config file {path}: {p}" for p in found]
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))


def defaults() -> dict[str, Any]:
    """The default files merged, not yet validated (a caller overrides keys, then validates)."""
    merged: dict[str, Any] = {}
    for path in default_files():
        merged = configs.merge(merged, configs.read_yaml(path) or {})
    return merged


def load(*paths: Path, profile: str | None = None) -> dict[str, Any]:
    """Merge the default files, a profile's files and `paths` (later ones win), then validate."""
    merged: dict[str, Any] = {}
    check_files([*paths])
    extra = [configs.read_config(p) for p in paths]
    chosen = (
        profile
        if profile is not None
        else next((str(r["profile"]) for r in reversed(extra) if "profile" in r), "")
    )
    for path in [*default_files(), *profile_files(chosen)]:
        merged = configs.merge(merged, configs.read_yaml(path) or {})
    for raw in extra:
        merged = configs.merge(merged, raw)
    if chosen:  # the profile chosen by argument is recorded as a profile file would record it
        merged["profile"] = chosen
    return validate(merged)


def read_validated(path: Path, command: str) -> dict[str, Any]:
    """A command's config file (e.g. a results tree's config.validated.yaml), validated; a file
    that cannot be read, is not YAML or is invalid stops `command` with one sentence naming it
    (no traceback)."""
    try:
        data = configs.read_yaml(path)
    except OSError as err:
        raise SystemExit(f"{command}: {path}: cannot read the config ({err.strerror})") from None
    except yaml.YAMLError as err:
        raise SystemExit(f"{command}: {path}: not YAML: {err}".replace("\n", " ")) from None
    try:
        return validate(data)
    except (ValueError, TypeError) as err:
        raise SystemExit(f"{command}: {path}: {err}") from None
