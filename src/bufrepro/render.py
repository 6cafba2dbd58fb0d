"""Render a study's TCL script from its Jinja2 template (StrictUndefined, Tcl-safe delimiters)."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from bufrepro.config import REPO_ROOT
from bufrepro.grid import RunPoint

TEMPLATE_DIR = REPO_ROOT / "tcl"
TEMPLATES: dict[str, str] = {"dumbbell": "dumbbell.tcl.j2"}
SINKS: dict[str, str] = {"Sack1": "TCPSink/Sack1", "Newreno": "TCPSink", "Reno": "TCPSink"}
CBR_FID = 9


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


def dumbbell_params(block: Mapping[str, Any], point: RunPoint) -> dict[str, Any]:
    """Template variables of one dumbbell run, from the validated config block."""
    buffer = int(point.get("buffer"))
    red = block["red"]
    min_th = max(1.0, red["min_th_frac"] * buffer)
    max_th = max(min_th + 1.0, red["max_th_frac"] * buffer)
    topo = block["topology"]
    return {
        "study": point.study,
        "seed": point.seed,
        "queue": point.get("queue"),
        "plr": point.get("plr"),
        "bottleneck_mbps": point.get("bottleneck_mbps"),
        "buffer": buffer,
        "tcp": dict(block["tcp"]),
        "tcp_sink_agent": SINKS[block["tcp"]["agent"]],
        "tcp_start_s": block["tcp"]["start_s"],
        "tcp_start_jitter_s": block["tcp"]["start_jitter_s"],
        "cbr": dict(block["cbr"]),
        "cbr_fid": CBR_FID,
        "red": dict(red),
        "red_min_th": round(min_th, 6),
        "red_max_th": round(max_th, 6),
        "red_linterm": round(1.0 / red["max_p"], 6),
        "red_gentle": "true" if red["gentle"] else "false",
        "access_bw_mbps": topo["access_bw_mbps"],
        "access_delay_ms": topo["access_delay_ms"],
        "bottleneck_delay_ms": topo["bottleneck_delay_ms"],
        "access_queue_pkts": topo["access_queue_pkts"],
        "reverse_queue_pkts": topo["reverse_queue_pkts"],
        "duration_s": block["measure"]["duration_s"],
        "trace_file": "out.tr",
    }


PARAMS = {"dumbbell": dumbbell_params}


def run_params(cfg: Mapping[str, Any], point: RunPoint) -> dict[str, Any]:
    """All template variables of a run."""
    return PARAMS[point.study](cfg[point.study], point)


def render(study: str, params: Mapping[str, Any], env: jinja2.Environment | None = None) -> str:
    """The TCL text of one run."""
    env = environment() if env is None else env
    return env.get_template(TEMPLATES[study]).render(**params)


def run_record(cfg: Mapping[str, Any], point: RunPoint) -> dict[str, Any]:
    """What params.json holds: the run's swept values, seed, template and template variables."""
    return {**point.as_dict(), "template": TEMPLATES[point.study], "params": run_params(cfg, point)}


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
