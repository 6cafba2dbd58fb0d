"""Load and validate a study's space of readings (config/readings/<S>.yaml and its profile's)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.kit import configs
from bufrepro.kit import distance as kdistance
from bufrepro.kit import space as kspace
from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import configuration

READINGS_DIR = configuration.CONFIG_DIR / "readings"
SCHEMA_PATH = configuration.CONFIG_DIR / "readings.schema.yaml"


@dataclass(frozen=True)
class Space:
    """A validated space of readings of one study."""

    study: str
    raw: Mapping[str, Any]

    @property
    def parameters(self) -> list[kspace.Parameter]:
        """The varied parameters, in declared order."""
        chosen = self.raw["select"] or list(self.raw["parameters"])
        return [kspace.parameter(k, v) for k, v in self.raw["parameters"].items() if k in chosen]

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    @property
    def rules(self) -> dict[str, kdistance.Rule]:
        """Each metric's verdict rule: its threshold (log), factor and one event per run."""
        verdict = self.raw["verdict"]
        out = {}
        for metric in self.raw["metrics"]:
            own = verdict["metrics"].get(metric, {})
            pct = float(own.get("max_error_pct", verdict["max_error_pct"]))
            factor, event = float(own.get("factor", 1.0)), float(own.get("event", 0.0))
            out[metric] = kdistance.Rule(math.log1p(pct / 100.0), factor, event)
        return out

    @property
    def acts_on(self) -> dict[str, dict[str, list[Any]]]:
        """The varied parameters that act on some cells only, with those cells."""
        chosen = {p.key for p in self.parameters}
        spec = self.raw["parameters"]
        return {k: dict(spec[k]["acts_on"]) for k in spec if k in chosen and spec[k].get("acts_on")}

    @property
    def held(self) -> list[str]:
        """The parameters no training row can move, as the split shows without a run: those
        acting only on cells whose values on the training key are none of the training ones
        (e.g. a RED setting when DropTail trains). Held at their a-priori value."""
        ((column, wanted),) = self.raw["train"].items()
        return [
            k
            for k, where in self.acts_on.items()
            if column in where and not set(map(str, where[column])) & set(map(str, wanted))
        ]


def files(study: str, profile: str) -> list[Path]:
    """The space's files: config/readings/<S>.yaml, then the profile's, where they exist."""
    out = [READINGS_DIR / f"{study}.yaml"]
    if profile:
        out.append(configuration.CONFIG_DIR / "profiles" / profile / "readings" / f"{study}.yaml")
    return [p for p in out if p.is_file()]


def studies_with_space(names: Sequence[str]) -> list[str]:
    """The studies that declare a space (the readings stage runs for these only)."""
    return [n for n in names if (READINGS_DIR / f"{n}.yaml").is_file()]


def _schema(study: str) -> dict[str, Any]:
    body = dict(configs.read_yaml(SCHEMA_PATH))
    body.pop("$schema", None)
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [study],
        "properties": {study: {"$ref": "#/$defs/space"}},
        "$defs": {"space": body},
    }


@cache
def _study_schema(study: str) -> dict[str, Any]:
    """The study's part of the whole config's schema (read once per process)."""
    top = configuration.schema()
    return {
        "type": "object",
        "properties": {study: top["properties"][study]},
        "$defs": top["$defs"],
    }


def validate_block(study: str, block: Mapping[str, Any], checks: bool = True) -> dict[str, Any]:
    """A study block validated and defaulted as the whole config would be, or ConfigError.

    checks=False leaves out the study's own cross-key checks (such as warm-up below duration):
    a single value cannot be judged by them while the other key varies too; every reading is
    checked whole before its stage runs anything.
    """

    def semantic(instance: Mapping[str, Any]) -> list[str]:
        return registry.get(study).check(instance[study]) if checks else []

    checked = configs.validate({study: dict(block)}, _study_schema(study), semantic)
    return dict(checked[study])


def reading_block(
    cfg: Mapping[str, Any],
    study: str,
    raw: Mapping[str, Any],
    values: Mapping[str, Any] | None = None,
    seeds: Sequence[int] = (),
    cells: Mapping[str, Sequence[Any]] | None = None,
) -> dict[str, Any]:
    """One reading's study block, not yet validated: the overrides and the reading's values
    applied, the grid narrowed to the cells by the study itself (Study.reading_block; `cells`
    narrows the space's further), the seeds set (default: the space's)."""
    block = kspace.apply(cfg[study], {**raw["overrides"], **(values or {})})
    narrowed = {**raw["cells"], **(cells or {})}
    block = dict(registry.get(study).reading_block(block, narrowed))
    block["seeds"] = list(seeds or raw["seeds"])
    return block


def _try(cfg: Mapping[str, Any], study: str, values: Mapping[str, Any], checks: bool = True) -> str:
    """'' when the study config with these values validates, else the first problem."""
    try:
        validate_block(study, kspace.apply(cfg[study], values), checks)
    except ConfigError as err:
        return str(err).splitlines()[-1].strip()
    return ""


def _parameter_problems(cfg: Mapping[str, Any], study: str, raw: Mapping[str, Any]) -> list[str]:
    block, where, out = cfg[study], f"config key {study}.parameters", []
    for key, spec in raw["parameters"].items():
        if not configs.has_key(block, key) or key.split(".")[0] in ("grid", "seeds"):
            out.append(
                f"{where}.{key}: names no setting of the {study} block (config/{study}.yaml)"
            )
            continue
        if ("values" in spec) == ("range" in spec):
            out.append(f"{where}.{key}: give exactly one of 'values' or 'range'")
            continue
        if "range" in spec:
            low, high = spec["range"]
            if not low < high or (spec.get("scale") == "log" and low <= 0):
                out.append(
                    f"{where}.{key}.range: {spec['range']} needs low < high (low > 0 for log)"
                )
                continue
        # A parameter left out by `select` is checked against the study config alone.
        fixed = raw["overrides"] if key in (raw["select"] or raw["parameters"]) else {}
        for value in kspace.parameter(key, spec).extremes():
            if problem := _try(cfg, study, {**fixed, key: value}, checks=False):
                out.append(f"{where}.{key}: value {value!r} is not allowed ({problem})")
    return out


def _other_problems(cfg: Mapping[str, Any], study: str, raw: Mapping[str, Any]) -> list[str]:
    spec, block, out = registry.get(study), cfg[study], []
    pre = f"config key {study}"
    out += [
        f"{pre}.select: {k!r} is not a parameter; allowed: {sorted(raw['parameters'])}"
        for k in raw["select"]
        if k not in raw["parameters"]
    ]
    out += [
        f"{pre}.cells.{k}: not a grid key of {study}; allowed: {list(spec.grid_keys)}"
        for k in raw["cells"]
        if k not in spec.grid_keys
    ]
    out += [
        f"{pre}.overrides.{k}: names no setting of the {study} block"
        for k in raw["overrides"]
        if not configs.has_key(block, k)
    ]
    columns = ["table", "block", "seed_file", *spec.grid_keys]
    out += [
        f"{pre}.train.{k}: not a column of the diff; allowed: {columns}"
        for k in raw["train"]
        if k not in columns
    ]
    # The readings run a study's grid, never its own rules: with rule tables, only the metrics
    # of the grid's runs may be compared. A study with derived tables (and no rules) may compare
    # metrics its compare() makes (e.g. a unit conversion), which are not checked here.
    if spec.rule_tables:
        known, note = {*spec.reported}, " (the readings run its grid only, not its own rules)"
    else:
        known, note = {*spec.reported, *spec.report_metrics}, ""
    if spec.rule_tables or not spec.derived:
        out += [
            f"{pre}.metrics: {m!r} is not a metric of {study}{note}; allowed: {sorted(known)}"
            for m in raw["metrics"]
            if m not in known
        ]
    out += [
        f"{pre}.parameters.{k}.acts_on.{c}: not a grid key of {study}; allowed: "
        f"{list(spec.grid_keys)}"
        for k, v in raw["parameters"].items()
        for c in v.get("acts_on", {})
        if c not in spec.grid_keys
    ]
    out += [
        f"{pre}.verdict.metrics.{m}: not a metric of {study}; allowed: {sorted(known)}"
        for m in raw["verdict"]["metrics"]
        if m not in known and m not in raw["metrics"]
    ]
    out += _screening_cells_problems(raw, pre)
    if out:
        return out
    narrowed = reading_block(cfg, study, raw)
    if not spec.points(narrowed):
        return [
            f"{pre}.cells: {dict(raw['cells'])} leave no run that the diff reads; allowed: "
            f"cells of the configured grid that a published table is diffed against"
        ]
    try:
        validate_block(study, narrowed)
    except ConfigError as err:
        problem = str(err).splitlines()[-1].strip()
        out.append(f"{pre}.cells/seeds/overrides: {problem}")
    return out


def _screening_cells_problems(raw: Mapping[str, Any], pre: str) -> list[str]:
    """sensitivity.cells: each key one of the space's cells, each value among its values."""
    out = []
    for key, values in raw["sensitivity"]["cells"].items():
        if key not in raw["cells"]:
            out.append(
                f"{pre}.sensitivity.cells.{key}: not a key of the space's cells; "
                f"allowed: {list(raw['cells'])}"
            )
        elif extra := [v for v in values if v not in raw["cells"][key]]:
            out.append(
                f"{pre}.sensitivity.cells.{key}: {extra} not among the space's cells; "
                f"allowed: {list(raw['cells'][key])}"
            )
    return out


def validate(cfg: Mapping[str, Any], study: str, merged: Mapping[str, Any]) -> Space:
    """The validated, defaulted space, or ConfigError naming every bad key and what is allowed."""
    if study not in cfg:
        raise ConfigError(
            f"config key studies: {study!r} is not selected; allowed: {cfg['studies']}"
        )
    checked = configs.validate(merged, _schema(study))
    raw = checked[study]
    if not raw["evaluate"]:  # declared only: its parameters are checked, nothing is planned
        if problems := _parameter_problems(cfg, study, raw):
            raise ConfigError(f"invalid space of readings of {study}:\n  " + "\n  ".join(problems))
        return Space(study, raw)
    problems = _other_problems(cfg, study, raw) + _parameter_problems(cfg, study, raw)
    if problems:
        raise ConfigError(f"invalid space of readings of {study}:\n  " + "\n  ".join(problems))
    space = Space(study, raw)
    if raw["max_runs"] and (planned := planned_runs(cfg, space)) > raw["max_runs"]:
        raise ConfigError(
            f"config key {study}.max_runs: the stages plan {planned} runs, "
            f"more than the budget {raw['max_runs']}"
        )
    return space


def load(cfg: Mapping[str, Any], study: str, paths: Sequence[Path]) -> Space:
    """Merge the space files in order (mappings merge, lists replace) and validate."""
    merged: dict[str, Any] = {}
    for path in paths:
        raw = configs.read_yaml(path) or {}
        if not isinstance(raw, dict):
            raise ConfigError(f"{path}: the top level must be a mapping")
        merged = configs.merge(merged, raw)
    return validate(cfg, study, merged)


def off_grid(cfg: Mapping[str, Any], space: Space) -> dict[str, list[Any]]:
    """The space's cells outside the study's configured grid, by key (empty: all covered).

    The stage runs only where the configured reproduction covers the cells, so that the fitted
    diff sits beside the a-priori diff of the same cells (a test's or a user's narrowed grid
    leaves the stage out).
    """
    study = registry.get(space.study)
    points = study.points(cfg[space.study])
    out = {}
    for key, values in space["cells"].items():
        i = study.grid_keys.index(key)
        missing = [v for v in values if v not in {p[i] for p in points}]
        if missing:
            out[key] = missing
    return out


def readings_count(space: Space) -> dict[str, int]:
    """Readings each stage evaluates: Morris trajectories x (k + 1), LHS budget + a-priori,
    the confirmed best ones + a-priori."""
    k = len(space.parameters)
    return {
        "sensitivity": space["sensitivity"]["trajectories"] * (k + 1),
        "calibration": space["calibration"]["readings"] + 1,
        "confirmation": min(space["confirmation"]["readings"], space["calibration"]["readings"])
        + 1,
    }


def runs_per_reading(
    cfg: Mapping[str, Any],
    space: Space,
    seeds: Sequence[int] = (),
    cells: Mapping[str, Sequence[Any]] | None = None,
) -> int:
    """How many runs one reading makes: its cells x seeds, as the study plans them."""
    block = reading_block(cfg, space.study, space.raw, seeds=seeds, cells=cells)
    return len(registry.get(space.study).runs(block))


def planned_runs(cfg: Mapping[str, Any], space: Space) -> int:
    """The runs the three stages plan (before any sharing of identical runs)."""
    count = readings_count(space)
    sens_seeds = space["sensitivity"]["seeds"]
    return (
        count["sensitivity"]
        * runs_per_reading(cfg, space, sens_seeds, space["sensitivity"]["cells"])
        + count["calibration"] * runs_per_reading(cfg, space)
        + count["confirmation"] * runs_per_reading(cfg, space, space["confirmation"]["seeds"])
    )
