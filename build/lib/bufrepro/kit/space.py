"""A space of readings: parameters with value sets or ranges, unit-cube points mapped to values."""

from __future__ import annotations

import copy
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Parameter:
    """One unstated parameter: a dotted config key with a set of values or a numeric interval."""

    key: str
    values: tuple[Any, ...] = ()
    low: float = 0.0
    high: float = 0.0
    scale: str = "linear"
    integer: bool = False

    def value(self, u: float) -> Any:
        """The value at position u of [0, 1]: a set's value by index, or a point of the range."""
        u = min(max(float(u), 0.0), 1.0)
        if self.values:
            return self.values[min(int(u * len(self.values)), len(self.values) - 1)]
        if self.scale == "log":
            x = math.exp(math.log(self.low) + u * (math.log(self.high) - math.log(self.low)))
        else:
            x = self.low + u * (self.high - self.low)
        return round(x) if self.integer else round(x, 9)

    def extremes(self) -> list[Any]:
        """Every value of a set, or both ends of a range (what validation tries)."""
        return list(self.values) if self.values else [self.value(0.0), self.value(1.0)]


def parameter(key: str, spec: Mapping[str, Any]) -> Parameter:
    """A Parameter from its config entry ({values: [...]} or {range: [lo, hi], scale, integer})."""
    if "values" in spec:
        return Parameter(key, values=tuple(spec["values"]))
    low, high = spec["range"]
    return Parameter(
        key,
        low=float(low),
        high=float(high),
        scale=str(spec.get("scale", "linear")),
        integer=bool(spec.get("integer", False)),
    )


def reading(params: Sequence[Parameter], point: Sequence[float]) -> dict[str, Any]:
    """The values of one reading from a point of the unit cube (one coordinate per parameter)."""
    return {p.key: p.value(u) for p, u in zip(params, point, strict=True)}


def set_dotted(block: Mapping[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """A deep copy of block with the dotted key (such as 'tcp.mss_bytes') set to value."""
    out: dict[str, Any] = copy.deepcopy(dict(block))
    node = out
    parts = dotted.split(".")
    for part in parts[:-1]:
        node[part] = dict(node[part])
        node = node[part]
    node[parts[-1]] = copy.deepcopy(value)
    return out


def apply(block: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The block with every dotted key of values set (later keys win)."""
    out = dict(block)
    for key, value in values.items():
        out = set_dotted(out, key, value)
    return out


def digest(block: Mapping[str, Any], leave_out: Sequence[str] = ()) -> str:
    """A short digest of a block's settings (keys in leave_out ignored): a reading's folder name."""
    kept = {k: v for k, v in block.items() if k not in leave_out}
    return hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode()).hexdigest()[:12]


def read_points(
    readings: Mapping[str, Mapping[str, Any]],
    keys: Sequence[str],
    configured: Sequence[tuple[Any, ...]],
    cells: Mapping[str, Sequence[Any]],
) -> list[tuple[Any, ...]]:
    """The points a diff reads in a grid whose published tables each name a reading.

    `readings` maps a name to a partial point (its setup is its `setup` value, else its name):
    the cell a published table is diffed against. Every configured point of a setup with a
    reading takes that reading's values; the cells narrow the other keys (a key the reading sets
    is the reading's, whatever the cells say; `setup` is narrowed as any key). Points of setups
    without a reading are left out.
    """
    by_setup = {str(r.get("setup", name)): dict(r) for name, r in readings.items()}
    out: dict[tuple[Any, ...], None] = {}
    for combo in configured:
        point = dict(zip(keys, combo, strict=True))
        reading = by_setup.get(str(point.get("setup")))
        if reading is None:
            continue
        narrowed = [k for k in cells if k in point and (k == "setup" or k not in reading)]
        if any(point[k] not in cells[k] for k in narrowed):
            continue
        point.update({k: v for k, v in reading.items() if k in point})
        out.setdefault(tuple(point[k] for k in keys), None)
    return list(out)


def sweep_grid(keys: Sequence[str], points: Sequence[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """A grid of named sweeps holding exactly `points`: one single-point sweep each."""
    return [
        {"name": f"reading-{i}", **{k: [v] for k, v in zip(keys, p, strict=True)}}
        for i, p in enumerate(points)
    ]
