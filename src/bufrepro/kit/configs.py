"""Config machinery: deep merge, schema defaults, text-to-number coercion, validation messages."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import yaml

Problems = Callable[[Mapping[str, Any]], list[str]]


class ConfigError(ValueError):
    """An invalid configuration: the message names the key and what is allowed."""


class _StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """YAML as a config file is read: a duplicated key is an error, and only true/false are
    booleans (YAML 1.1's yes/no/on/off stay text, for the schema to refuse where it wants a
    boolean)."""


_StrictLoader.yaml_implicit_resolvers = {
    first: [r for r in resolvers if r[0] != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def _mapping(loader: Any, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"duplicate key {key!r} (first on line {seen[key] + 1})",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line
    return dict(loader.construct_pairs(node, deep=True))


_StrictLoader.add_constructor("tag:yaml.org,2002:map", _mapping)


def read_config(path: Path) -> dict[str, Any]:
    """A config file: YAML (strict: no duplicated key, no YAML 1.1 boolean) whose top level is a
    mapping (an empty file is {}); ConfigError naming the file otherwise."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.load(fh, Loader=_StrictLoader)
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"config file {path}: unreadable: {err}") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"config file {path}: not valid YAML: {err}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"config file {path}: the top level must be a mapping of config keys, not a "
            f"{type(data).__name__}"
        )
    return data


def read_yaml(path: Path) -> Any:
    """Parse a YAML file (libyaml's loader when built in: every Snakemake process reads them)."""
    with path.open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge, as Snakemake merges config files: mappings merge, anything else replaces."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        node: Any = root
        for part in ref[2:].split("/"):
            node = node[part]
        merged = dict(node)
        merged.update({k: v for k, v in schema.items() if k != "$ref"})
        return merged
    return schema


def fill_defaults(
    instance: dict[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any]
) -> None:
    """Insert schema defaults for missing keys, recursing into objects (in place)."""
    schema = _resolve(schema, root)
    for key, sub in schema.get("properties", {}).items():
        sub = _resolve(sub, root)
        if key not in instance and "default" in sub:
            instance[key] = copy.deepcopy(sub["default"])
        if isinstance(instance.get(key), dict) and sub.get("type", "object") == "object":
            fill_defaults(instance[key], sub, root)


def _number_text(value: str, kind: str) -> Any:
    """A number written as text ('5', '0.02'), as Snakemake's --config delivers it, else value."""
    try:
        parsed = yaml.safe_load(value)
    except yaml.YAMLError:
        return value
    if kind == "integer" and isinstance(parsed, int) and not isinstance(parsed, bool):
        return parsed
    if kind == "number" and isinstance(parsed, int | float) and not isinstance(parsed, bool):
        return parsed
    if kind == "boolean" and value in ("true", "false", "True", "False"):
        return value.lower() == "true"
    return value


def coerce_text(instance: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> Any:
    """Turn numeric/boolean text into numbers/booleans where the schema wants them.

    `snakemake --config 'dumbbell={grid: {buffer: [5]}}'` delivers 5 as the text '5'; text that is
    not a number ('ten') is left as it is, for the schema to reject.
    """
    schema = _resolve(schema, root)
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        fallback: Mapping[str, Any] = extra if isinstance(extra, Mapping) else {}
        return {k: coerce_text(v, props.get(k, fallback), root) for k, v in instance.items()}
    if isinstance(instance, list) and isinstance(schema.get("items"), Mapping):
        return [coerce_text(v, schema["items"], root) for v in instance]
    kind = schema.get("type")
    if isinstance(instance, str) and kind in ("integer", "number", "boolean"):
        return _number_text(instance, kind)
    return instance


def _key_path(path: Iterator[Any] | Any) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _allowed(error: jsonschema.ValidationError) -> str:
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if "enum" in schema:
        return f"allowed: {schema['enum']}"
    bounds = [
        f"{name} {schema[key]}"
        for key, name in (
            ("minimum", ">="),
            ("exclusiveMinimum", ">"),
            ("maximum", "<="),
            ("exclusiveMaximum", "<"),
        )
        if key in schema
    ]
    if "type" in schema:
        bounds.insert(0, f"type {schema['type']}")
    if error.validator == "additionalProperties" and "properties" in schema:
        bounds = [f"known keys: {sorted(schema['properties'])}"]
    return ("allowed: " + ", ".join(bounds)) if bounds else ""


# JSON Schema calls 10.0 an integer; a config that means a count says 10.
_STRICT = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool)
    ),
)


def boolean_text(
    instance: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str = ""
) -> list[str]:
    """Keys whose schema wants a boolean but that hold text (a YAML 1.1 'no', 'on', or a quoted
    'false'), each named with its dotted key."""
    schema = _resolve(schema, root)
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        out: list[str] = []
        for k, v in instance.items():
            if k in props:
                out += boolean_text(v, props[k], root, f"{where}.{k}" if where else str(k))
        return out
    if schema.get("type") == "boolean" and isinstance(instance, str):
        return [f"config key {where}: {instance!r} is text, not a boolean (write true or false)"]
    return []


def validate(
    config: Mapping[str, Any], schema: Mapping[str, Any], semantic: Problems | None = None
) -> dict[str, Any]:
    """A defaulted copy of `config`, or ConfigError listing every problem (schema first)."""
    instance: dict[str, Any] = coerce_text(copy.deepcopy(dict(config)), schema, schema)
    fill_defaults(instance, schema, schema)
    validator = _STRICT(schema)
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    problems = [
        f"config key {_key_path(e.absolute_path)}: {e.message}"
        + (f" ({hint})" if (hint := _allowed(e)) else "")
        for e in errors
    ]
    if not problems and semantic is not None:
        problems = semantic(instance)
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))
    return instance


def has_key(block: Mapping[str, Any], dotted: str) -> bool:
    """True when the dotted key (such as 'tcp.tick_s') names a key of the block."""
    node: Any = block
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def get_dotted(block: Mapping[str, Any], dotted: str) -> Any:
    """Value at a dotted key such as 'tcp.tick_s'."""
    node: Any = block
    for part in dotted.split("."):
        node = node[part]
    return node


def measure_problems(study: str, measure: Mapping[str, Any], where: str = "measure") -> list[str]:
    """A measurement window whose warm-up is not below its duration, named by its key."""
    if measure["warmup_s"] >= measure["duration_s"]:
        return [
            f"config key {study}.{where}.warmup_s: {measure['warmup_s']} must be below "
            f"{study}.{where}.duration_s ({measure['duration_s']})"
        ]
    return []
