"""What a reproduction spent (its runs' recorded CPU per study and stage) and what it left out."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bufrepro import registry
from bufrepro.kit import prose
from bufrepro.pipeline import plan

WORDS = Path(__file__).with_name("spent.yaml")


def stage(run_json: Path, study: Path) -> str:
    """A run's stage by where it lives: the grid (own simulator), a further simulator's grid,
    the readings, or a study's own rules' runs (results/<S>/<rule>/...)."""
    parts = run_json.relative_to(study).parts
    if parts[0] == "runs":
        return "grid"
    if parts[0] == "readings":
        return "readings"
    if len(parts) > 1 and parts[1] == "runs":
        return f"grid on {parts[0]}"
    return parts[0]


def spent(results: Path, names: Sequence[str]) -> list[dict[str, Any]]:
    """Per study and stage: the runs and the CPU seconds their run.json records (simulator and
    parsers), in study order then stage order of first appearance."""
    out = []
    for name in names:
        study = results / name
        rows: dict[str, dict[str, Any]] = {}
        for path in sorted(study.glob("**/run.json")):
            meta = json.loads(path.read_text(encoding="utf-8"))
            row = rows.setdefault(stage(path, study), {"runs": 0, "cpu_s": 0.0})
            row["runs"] += 1
            row["cpu_s"] += float(sum(meta.get("cpu_s", {}).values()))
        out += [
            {"study": name, "stage": k, "runs": v["runs"], "cpu_s": round(v["cpu_s"], 1)}
            for k, v in rows.items()
        ]
    return out


def apart(cfg: Mapping[str, Any], name: str, backend: str) -> bool:
    """Whether a further simulator's grid (simulator_grid) shares no value of some grid key with
    the study's own grid, so that none of its cells can be set beside the own simulator's."""
    own = cfg[name].get("grid", {})
    chosen = cfg.get("simulator_grid", {}).get(name, {}).get(backend) or {}
    return any(
        key in own and not {str(v) for v in values} & {str(v) for v in own[key]}
        for key, values in chosen.items()
        if key != "seeds"
    )


def left_out(cfg: Mapping[str, Any]) -> list[str]:
    """Each study's further simulator the config does not run, or runs apart from the own
    simulator's cells, with what it would cost and the config that runs it (spent.yaml); a part
    without words there is named alone."""
    words = prose.load(WORDS)
    out = []
    for name in cfg["studies"]:
        running = set(plan.simulators(cfg, name))
        for backend in registry.get(name).simulators():
            if backend not in running:
                said = words["left_out"].get(name, {}).get(backend)
                out.append(str(said or f"{name} on {backend} is not run."))
            elif backend in plan.other_simulators(cfg, name) and apart(cfg, name, backend):
                said = words["apart"].get(name, {}).get(backend)
                out.append(str(said or f"{name} on {backend} runs no cell of {name}'s own grid."))
    return [" ".join(w.split()) for w in out]
