"""Render a study's TCL script from its Jinja2 template (StrictUndefined, Tcl-safe delimiters)."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from bufrepro.grid import RunPoint
from bufrepro.paths import REPO_ROOT

TEMPLATE_DIR = REPO_ROOT / "tcl"


def environment(template_dir: Path = TEMPLATE_DIR) -> jinja2.Environment:
    """Jinja2 environment: << var >>, <% block %>, <# comment #>; undefined names fail."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        undefined=jinja2.StrictUndefined,
        variable_start_string="<<",
        variable_end_string=">>",
        block_start_string="<%",
        block_end_string="%>",
        comment_start_string="<#",
        comment_end_string="#>",
        keep_trailing_newline=True,
        autoescape=False,
    )


def run_params(cfg: Mapping[str, Any], point: RunPoint) -> dict[str, Any]:
    """All template variables of a run."""
    from bufrepro.studies import get

    return get(point.study).params(cfg[point.study], point)


def render(study: str, params: Mapping[str, Any], env: jinja2.Environment | None = None) -> str:
    """The TCL text of one run."""
    from bufrepro.studies import get

    env = environment() if env is None else env
    return env.get_template(get(study).template).render(**params)


def run_record(cfg: Mapping[str, Any], point: RunPoint) -> dict[str, Any]:
    """What params.json holds: the run's swept values, seed, template and template variables."""
    from bufrepro.studies import get

    template = get(point.study).template
    return {**point.as_dict(), "template": template, "params": run_params(cfg, point)}


def write_run_inputs(record: Mapping[str, Any], tcl_path: Path, params_path: Path) -> None:
    """Write a run's sim.tcl (rendered from record['params']) and params.json (the record)."""
    tcl_path.parent.mkdir(parents=True, exist_ok=True)
    tcl_path.write_text(render(str(record["study"]), record["params"]), encoding="utf-8")
    params_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.render SIM_TCL PARAMS_JSON RECORD`: render one run.

    RECORD is the JSON of run_record(), computed by the workflow from the validated config.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3:
        print("usage: python -m bufrepro.render SIM_TCL PARAMS_JSON RECORD_JSON", file=sys.stderr)
        return 2
    write_run_inputs(json.loads(args[2]), Path(args[0]), Path(args[1]))
    print(f"rendered {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
