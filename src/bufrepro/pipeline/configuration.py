"""The whole configuration: every discovered study's schema and files, profiles, validation."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.kit import configs
from bufrepro.kit.configs import ConfigError
from bufrepro.kit.paths import REPO_ROOT

CONFIG_DIR = REPO_ROOT / "config"
SCHEMA_PATH = CONFIG_DIR / "config.schema.yaml"

__all__ = ["ConfigError", "default_files", "load", "profile_files", "schema", "validate"]


def schema() -> dict[str, Any]:
    """The top-level schema with each discovered study's schema (config/<study>.schema.yaml)."""
    top: dict[str, Any] = configs.read_yaml(SCHEMA_PATH)
    names = registry.names()
    top["properties"]["studies"]["items"] = {"enum": names}
    top["properties"]["studies"]["default"] = names
    top["properties"]["runs_per_job"]["propertyNames"] = {"enum": names}
    defs = top.setdefault("$defs", {})
    for name in names:
        study_schema = dict(configs.read_yaml(CONFIG_DIR / f"{name}.schema.yaml"))
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
    return problems


def validate(config: Mapping[str, Any]) -> dict[str, Any]:
    """A defaulted copy of `config`, or ConfigError naming every bad key and what is allowed."""
    return configs.validate(_with_experiment_defaults(config), schema(), _semantic)


def load(*paths: Path, profile: str | None = None) -> dict[str, Any]:
    """Merge the default files, a profile's files and `paths` (later ones win), then validate."""
    merged: dict[str, Any] = {}
    extra = [configs.read_yaml(p) or {} for p in paths]
    for raw, where in zip(extra, paths, strict=True):
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: the top level must be a mapping")
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
