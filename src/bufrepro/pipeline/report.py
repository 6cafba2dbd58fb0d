"""Build the self-contained HTML report: summary, provenance, diff, claims, figures, tables."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd

from bufrepro import registry
from bufrepro.kit.figures import png_data_uri
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import (
    evidence,
    labels,
    plan,
    queues,
    report_crosssim,
    report_diff,
    report_text,
    spent,
    summary,
)

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


def png_width(path: Path) -> int:
    """A PNG's width in pixels, from its IHDR chunk."""
    return int.from_bytes(path.read_bytes()[16:20], "big")


# Figures wider than this (pixels) take the page's width; narrower ones go two to a row.
WIDE_FIGURE_PX = 700
# Shown tables with more rows than this start folded.
OPEN_TABLE_ROWS = 15


def _html_table(df: pd.DataFrame, float_format: str = "{:.3f}") -> str:
    df = df.rename(columns={c: report_diff.readable(str(c)) for c in df.columns})
    return df.to_html(
        index=False,
        na_rep="",
        border=0,
        classes="tbl",
        float_format=lambda v: float_format.format(v),
    )


def reproduced_table(study: str, tables: Path) -> str:
    """Our summary as one row per grid point: mean [95% CI] (n) per reported metric."""
    spec = registry.get(study)
    main = pd.read_csv(tables / "summary.csv")
    main = main[main["metric"].isin(spec.report_metrics)].copy()
    main["value"] = main.apply(
        lambda r: (
            f"{r['mean']:.3g} [{r['ci_low']:.3g}, {r['ci_high']:.3g}] (n={int(r['n'])})"
            if pd.notna(r["ci_low"])
            else f"{r['mean']:.3g} (n={int(r['n'])})"
        ),
        axis=1,
    )
    wide = main.pivot_table(
        index=list(spec.grid_keys), columns="metric", values="value", aggfunc="first", sort=True
    ).reset_index()
    wide.columns.name = None
    return _html_table(wide)


def shown_table(study: str, name: str, tables: Path, cfg: Mapping[str, Any]) -> dict[str, Any]:
    """One of the study's further tables: heading, caption, HTML, and whether it starts open."""
    df = pd.read_csv(tables / f"{name}.csv", keep_default_na=False)
    return {
        "name": name,
        "heading": report_diff.readable(name),
        "caption": report_text.caption(study, name, cfg),
        "html": _html_table(df, "{:.4g}"),
        "rows": len(df),
        "open": len(df) <= OPEN_TABLE_ROWS,
    }


def study_section(study: str, cfg: Mapping[str, Any], results: Path) -> dict[str, Any]:
    """Everything the template shows for one study."""
    spec = registry.get(study)
    tables = results / study / "tables"
    block = cfg[study]
    diff = pd.read_csv(tables / "diff.csv")
    return {
        "study": study,
        "title": spec.title,
        "provenance": json.loads((results / study / "provenance.json").read_text("utf-8")),
        "assumptions": report_text.assumptions(study, cfg),
        "claims": pd.read_csv(tables / "claims.csv").to_dict("records"),
        "calibrated": calibrated_claims(tables),
        "diff_tables": report_diff.diff_tables(diff, study),
        "diff_csv": report_diff.csv_data_uri(diff),
        "summary_html": reproduced_table(study, tables),
        "figures": [
            {
                "name": f,
                "heading": report_diff.readable(f),
                "uri": png_data_uri(results / study / "figures" / f"{f}.png"),
                "wide": png_width(results / study / "figures" / f"{f}.png") > WIDE_FIGURE_PX,
                "caption": report_text.caption(study, f, cfg),
            }
            for f in spec.figures
        ],
        "grid": spec.grid_text(block),
        "seeds": block["seeds"],
        "measure": block.get("measure", {}),
        "tables": [
            *(shown_table(study, t, tables, cfg) for t in spec.shown_tables()),
            *(
                [shown_table(study, "precision", tables, cfg)]
                if (tables / "precision.csv").exists()
                else []
            ),
            *report_crosssim.shown(
                study,
                tables,
                list(spec.grid_keys),
                lambda name: report_text.caption(study, name, cfg),
                lambda df: _html_table(df, "{:.4g}"),
                OPEN_TABLE_ROWS,
            ),
        ],
        "readings": readings_section(study, cfg, results),
    }


def calibrated_claims(tables: Path) -> dict[str, Any]:
    """The claims on the best calibrated reading (claims_calibrated.csv), by (claim, scope), with
    the reading, its distances, and the reason when there are none; {} if the table is absent."""
    path = tables / "claims_calibrated.csv"
    if not path.is_file():
        return {}
    df = pd.read_csv(path, keep_default_na=False)
    judged = df[df["reason"].astype(str) == ""]
    if judged.empty:
        reason = str(df["reason"].iloc[0]) if len(df) else "no calibrated claims"
        return {"reason": reason, "by_claim": {}}
    first = judged.iloc[0]
    return {
        "reason": "",
        "reading": str(first["reading"]),
        "validation_distance": float(first["validation_distance"]),
        "validation_error_pct": round(100 * math.expm1(float(first["validation_distance"])), 1),
        "by_claim": {
            f"{r['claim']}|{r['scope']}": {
                "verdict": str(r["verdict"]),
                "evidence": str(r["evidence"]),
                "a_priori_cells_verdict": str(r["a_priori_cells_verdict"]),
                "shape_verdict": str(r.get("shape_verdict", "")),
            }
            for r in judged.to_dict("records")
        },
    }


# The readings stage's outputs (bufrepro.pipeline.readings), shown when the stage ran.
caption = report_text.caption
READINGS_TABLES = (
    "confirmation",
    "diff_confirmed",
    "calibration",
    "sensitivity",
    "diff_calibrated",
)


def readings_section(study: str, cfg: Mapping[str, Any], results: Path) -> dict[str, Any]:
    """The verdict, the readings tables and the sensitivity figure; {} if the stage has not run."""
    tables = results / study / "tables"
    if not (tables / "verdict.json").is_file():
        return {}
    figure = results / study / "figures" / "sensitivity.png"
    verdict = json.loads((tables / "verdict.json").read_text("utf-8"))
    reading = verdict.get("reading", {})
    apart = reading.get("apart", [])
    return {
        "verdict": verdict,
        # The best reading's every value in words, those that set it apart from the a-priori
        # reading marked (the verdict names at most four of them).
        "settings": [
            {"text": labels.setting(study, k, v), "apart": k in apart}
            for k, v in reading.get("values", {}).items()
        ],
        "tables": [
            {**shown_table(study, t, tables, cfg), "caption": caption("readings", t, cfg)}
            for t in READINGS_TABLES
            if (tables / f"{t}.csv").is_file()
        ],
        "figure": png_data_uri(figure) if figure.is_file() else "",
        "caption": caption("readings", "sensitivity_figure", cfg),
        "screening": screening(results / study / "readings" / "sensitivity.json"),
    }


def screening(state: Path) -> dict[str, Any]:
    """The screening's readings, runs and cells (its state file); {} when absent."""
    if not state.is_file():
        return {}
    info = json.loads(state.read_text("utf-8"))
    cells = info.get("cells", {})
    return {"readings": info["readings"], "runs": info["runs"], "cells": cells}


def queues_section(cfg: Mapping[str, Any], results: Path) -> dict[str, Any]:
    """Today's queues on the papers' grids: per study whose further simulator ran other queues,
    a sentence per paper, the claims on every queue and the figure; the studies not run there.
    {} when no configured study has such a simulator."""
    chosen = [(s, plan.queue_backend(cfg, s)) for s in cfg["studies"]]
    chosen = [(s, b) for s, b in chosen if b]
    if not chosen:
        return {}
    sections = []
    for study, backend in chosen:
        tables = results / study / "tables"
        figure = results / study / "figures" / f"{queues.FIGURE}.png"
        claims = pd.read_csv(tables / "queues_claims.csv", keep_default_na=False)
        sections.append(
            {
                "study": study,
                "title": registry.get(study).title,
                "backend": backend,
                "sentences": list(pd.read_csv(tables / "queues_conclusions.csv")["sentence"]),
                "claims": queues.pivot(claims, registry.get(study).own_simulator()),
                "claims_caption": caption(study, "queues_claims", cfg),
                "uri": png_data_uri(figure),
                "caption": caption(study, queues.FIGURE, cfg),
                "aqm": queues.operating_point(plan.simulator_block(cfg, study, backend)),
            }
        )
    backends = sorted({b for _, b in chosen})
    return {"studies": sections, "not_run": queues.not_run(registry.names(), backends)}


def build(
    cfg: Mapping[str, Any],
    results: Path,
    template: Path,
    out: Path,
    command: str = "",
    configfiles: Sequence[str] = (),
) -> None:
    """Render the report for every configured study to `out`."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template.parent)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "j2"]),
    )
    studies = list(cfg["studies"])
    rows = summary.summaries(results, studies)
    html = env.get_template(template.name).render(
        summary=summary.display_rows(rows),
        summary_keys=summary.display_keys(rows),
        judged_by=summary.judged_by(summary.display_rows(rows), str(cfg.get("profile") or "")),
        spent=spent.spent(results, studies),
        left_out=spent.left_out(cfg),
        legend=report_diff.legend(),
        status_note=report_diff.status_note(),
        min_seeds=evidence.MIN_SEEDS,
        min_readings=evidence.MIN_READINGS,
        min_validation=evidence.MIN_VALIDATION_VALUES,
        provenance=report_text.provenance(cfg, results, command, configfiles),
        studies=[study_section(s, cfg, results) for s in studies],
        queues=queues_section(cfg, results),
        definitions=[
            {"script": str(p.relative_to(AWK_DIR)), "text": awk_header(p)}
            for p in sorted(AWK_DIR.glob("**/*.awk"))
        ],
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")


def write_tables(cfg: Mapping[str, Any], results: Path, out_dir: Path) -> list[Path]:
    """The summary, and each study's diff (with each value's status), claims and claims on the
    calibrated reading, as CSVs for Snakemake's report: out_dir/summary.csv, <study>_diff.csv,
    <study>_claims.csv, <study>_claims_calibrated.csv."""
    studies = list(cfg["studies"])
    out_dir.mkdir(parents=True, exist_ok=True)
    frames = {"summary": summary.summary_frame(results, studies)}
    for s in studies:
        diff = summary.with_status(pd.read_csv(results / s / "tables" / "diff.csv"))
        diff["status"] = diff["status"].map(summary.STATUS_TEXT)
        frames[f"{s}_diff"] = diff
        frames[f"{s}_claims"] = pd.read_csv(results / s / "tables" / "claims.csv")
        frames[f"{s}_claims_calibrated"] = pd.read_csv(
            results / s / "tables" / "claims_calibrated.csv"
        )
    paths = []
    for name, frame in frames.items():
        path = out_dir / f"{name}.csv"
        frame.to_csv(path, index=False, lineterminator="\n")
        paths.append(path)
    return paths
