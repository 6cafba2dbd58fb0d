"""Build the self-contained HTML report: tables, figures, diff, claims, assumptions, provenance."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd

from bufrepro import registry
from bufrepro.kit.configs import get_dotted
from bufrepro.kit.paths import REPO_ROOT

AWK_DIR = REPO_ROOT / "awk"


def awk_header(path: Path) -> str:
    """The leading comment block of an AWK script (its metric definitions), without '# '."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#!"):
            continue
        if not line.startswith("#"):
            break
        lines.append(re.sub(r"^# ?", "", line))
    return "\n".join(lines)


def assumptions_table(study: str, block: Mapping[str, Any]) -> list[dict[str, str]]:
    """Each unstated parameter: key, our value, why."""
    return [
        {
            "key": f"{study}.{key}",
            "value": json.dumps(get_dotted(block, key)),
            "why": block["assumptions"][key],
        }
        for key in registry.get(study).unstated
    ]


def _png_data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _html_table(df: pd.DataFrame, float_format: str = "{:.3f}") -> str:
    return df.to_html(
        index=False,
        na_rep="",
        border=0,
        classes="tbl",
        float_format=lambda v: float_format.format(v),
    )


def study_section(study: str, cfg: Mapping[str, Any], results: Path) -> dict[str, Any]:
    """Everything the template shows for one study."""
    spec = registry.get(study)
    tables = results / study / "tables"
    block = cfg[study]
    keys = list(spec.grid_keys)
    summary = pd.read_csv(tables / "summary.csv")
    main = summary[summary["metric"].isin(spec.report_metrics)].copy()
    main["value"] = main.apply(
        lambda r: (
            f"{r['mean']:.3g} [{r['ci_low']:.3g}, {r['ci_high']:.3g}]"
            if pd.notna(r["ci_low"])
            else f"{r['mean']:.3g}"
        ),
        axis=1,
    )
    wide = main.pivot_table(
        index=keys, columns="metric", values="value", aggfunc="first", sort=True
    ).reset_index()
    wide.columns.name = None
    diff = pd.read_csv(tables / "diff.csv")
    claims = pd.read_csv(tables / "claims.csv")
    grid = spec.grid_text(block)
    return {
        "study": study,
        "title": spec.title,
        "provenance": json.loads((results / study / "provenance.json").read_text("utf-8")),
        "coverage": json.loads((tables / "coverage.json").read_text("utf-8")),
        "assumptions": assumptions_table(study, block),
        "claims": claims.to_dict("records"),
        "diff_html": _html_table(diff.drop(columns=["has_counterpart"])),
        "summary_html": wide.to_html(index=False, border=0, classes="tbl"),
        "figures": [
            {
                "name": f,
                "uri": _png_data_uri(results / study / "figures" / f"{f}.png"),
                "caption": (REPO_ROOT / "report" / "captions" / study / f"{f}.rst").read_text(
                    "utf-8"
                ),
            }
            for f in spec.figures
        ],
        "grid": grid,
        "seeds": block["seeds"],
        "measure": block.get("measure", {}),
        "tables": [
            {
                "name": t,
                "caption": _caption(study, t),
                "html": _html_table(
                    pd.read_csv(tables / f"{t}.csv", keep_default_na=False), "{:.4g}"
                ),
            }
            for t in spec.shown_tables()
        ],
    }


def _caption(study: str, name: str) -> str:
    """report/captions/<study>/<name>.rst, or "" when there is none."""
    path = REPO_ROOT / "report" / "captions" / study / f"{name}.rst"
    return path.read_text("utf-8") if path.exists() else ""


def build(cfg: Mapping[str, Any], results: Path, template: Path, out: Path) -> None:
    """Render the report for every configured study to `out`."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template.parent)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "j2"]),
    )
    html = env.get_template(template.name).render(
        studies=[study_section(s, cfg, results) for s in cfg["studies"]],
        definitions=[
            {"script": str(p.relative_to(AWK_DIR)), "text": awk_header(p)}
            for p in sorted(AWK_DIR.glob("**/*.awk"))
        ],
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
