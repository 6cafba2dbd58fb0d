"""TCL rendering: golden files per scenario, StrictUndefined, Tcl braces untouched."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
import pytest

from bufrepro import grid, render

GOLDEN = Path(__file__).parent / "golden"


def _point(cfg: dict[str, Any], queue: str, buffer: int, seed: int) -> grid.RunPoint:
    return next(
        p
        for p in grid.expand(cfg, "dumbbell")
        if p.get("queue") == queue and p.get("buffer") == buffer and p.seed == seed
    )


@pytest.mark.parametrize(("queue", "buffer", "seed"), [("DropTail", 5, 1), ("RED", 50, 2)])
def test_rendered_tcl_matches_golden(
    tiny_cfg: dict[str, Any], queue: str, buffer: int, seed: int
) -> None:
    point = _point(tiny_cfg, queue, buffer, seed)
    text = render.render("dumbbell", render.run_params(tiny_cfg, point))
    golden = GOLDEN / f"dumbbell_{queue.lower()}_buf{buffer}_seed{seed}.tcl"
    if os.environ.get("BUFREPRO_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs; if the change is intended, rerun with BUFREPRO_UPDATE_GOLDEN=1"
    )


def test_misspelt_variable_fails(tmp_path: Path) -> None:
    (tmp_path / "t.tcl.j2").write_text("set x << buffr >>\nproc f {} { return 1 }\n")
    env = render.environment(tmp_path)
    with pytest.raises(jinja2.UndefinedError, match="buffr"):
        env.get_template("t.tcl.j2").render(buffer=5)


def test_tcl_braces_pass_through(tmp_path: Path) -> None:
    (tmp_path / "t.tcl.j2").write_text("proc f {} { puts {a} }\nset b << b >>\n")
    out = render.environment(tmp_path).get_template("t.tcl.j2").render(b=3)
    assert out == "proc f {} { puts {a} }\nset b 3\n"


def test_red_thresholds_derived_from_buffer(tiny_cfg: dict[str, Any]) -> None:
    params = render.run_params(tiny_cfg, _point(tiny_cfg, "RED", 5, 1))
    assert params["red_min_th"] == 1.25 and params["red_max_th"] == 3.75
    small = render.run_params(
        tiny_cfg,
        grid.RunPoint(
            "dumbbell",
            (("queue", "RED"), ("plr", 0.05), ("bottleneck_mbps", 0.5), ("buffer", 2)),
            1,
        ),
    )
    assert small["red_min_th"] == 1.0 and small["red_max_th"] == 2.0


def test_run_outside_grid_rejected(tiny_cfg: dict[str, Any]) -> None:
    with pytest.raises(KeyError, match="not a run of the configured"):
        grid.find(tiny_cfg, "dumbbell", "results/dumbbell/runs/FIFO/plr0.05/bw0.5/buf5/seed1")
