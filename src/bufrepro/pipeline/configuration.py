"""The whole configuration: every discovered study's schema and files, profiles, validation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.kit import configs, grid
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


def _semantic(cfg: Mapping[str, Any]) -> list[str]:
    """Problems the schema cannot see: each study's own check, and a reason per unstated key."""
    problems: list[str] = []
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
    return problems


def validate(config: Mapping[str, Any]) -> dict[str, Any]:
    """A defaulted copy of `config`, or ConfigError naming every bad key and what is allowed."""
    return configs.validate(config, schema(), _semantic)


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
