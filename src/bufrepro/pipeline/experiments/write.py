"""The answer stage of an experiment: its tables, figures, answer text and page, in one job."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from bufrepro.kit.figures import png_data_uri
from bufrepro.kit.templates import environment
from bufrepro.pipeline.experiments import answer, plan, plots, text

CAPTIONS = Path("report/captions/experiments")


def write_answer(exp: plan.Resolved, template: Path, page: Path) -> str:
    """Write tables/{runs,answer,rules,recommendation}.csv, figures/*.png, answer.txt, the
    answer as data (answer.json) and the page; returns the answer's text."""
    name, block, kind = exp.name, exp.block, exp.kind
    describe = kind.describe(exp.setup)
    runs = answer.runs_frame(exp)
    table = answer.wide_table(runs, describe)
    rules = answer.rules_frame(kind.rules(exp.setup), describe)
    recs = answer.recommend(runs, block, describe)
    within, delay, loss = answer.targets(block)
    sets = answer.seed_sets(list(block["seeds"]))
    told = text.build(describe, rules, recs, runs, (within, delay, loss), sets)
    body = text.render(told)
    out = exp.folder
    tables = out / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    runs.to_csv(tables / "runs.csv", index=False, float_format="%.6f")
    table.to_csv(tables / "answer.csv", index=False, float_format="%.6f")
    rules.to_csv(tables / "rules.csv", index=False, float_format="%.6f")
    recs.to_csv(tables / "recommendation.csv", index=False, float_format="%.6f")
    figures = out / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    made = {
        "utilisation_delay": plots.utilisation_delay(table, rules, recs),
        "delay_vs_throughput": plots.delay_vs_throughput(table),
        "loss": plots.loss(table, rules),
    }
    for fig_name, fig in made.items():
        fig.savefig(figures / f"{fig_name}.png", dpi=110)
    (out / "answer.txt").write_text(body, encoding="utf-8")
    data = json.dumps(text.as_data(told), indent=1, allow_nan=False)
    (out / "answer.json").write_text(data + "\n", encoding="utf-8")
    refine = json.loads(exp.refine_file.read_text(encoding="utf-8"))
    page.parent.mkdir(parents=True, exist_ok=True)
    html = (
        environment(template.parent)
        .get_template(template.name)
        .render(
            name=name,
            title=kind.title,
            answer=body,
            describe=describe,
            block_yaml=json.dumps(dict(block), indent=1, sort_keys=True),
            columns=list(table.columns),
            rows=_rounded(table),
            rules=rules.to_dict("records"),
            refine=refine,
            figures=[
                {
                    "src": png_data_uri(figures / f"{f}.png"),
                    "caption": (CAPTIONS / f"{f}.rst").read_text(encoding="utf-8"),
                }
                for f in plan.FIGURES
            ],
            provenance=_provenance(runs, exp),
        )
    )
    page.write_text(html, encoding="utf-8")
    return body


def _rounded(table: pd.DataFrame) -> list[list[str]]:
    """The wide table's cells as the page shows them (3 significant digits)."""
    return [
        [v if isinstance(v, str) else f"{v:.3g}" for v in row]
        for row in table.itertuples(index=False)
    ]


def _provenance(runs: pd.DataFrame, exp: plan.Resolved) -> dict[str, str]:
    """The simulator as the runs recorded it, and how to rerun."""
    first = plan.stage_points(exp, "coarse")[0]
    meta = json.loads((Path(first.run_dir) / "run.json").read_text(encoding="utf-8"))
    return {
        "simulator": f"{meta.get('simulator', '?')} {meta.get('simulator_version', '?')} "
        f"({meta.get('simulator_package', '?')}), {meta.get('simulator_binary', '?')}",
        "runs": str(len(runs)),
        "rerun": f"snakemake --cores 2 --configfile experiments/{exp.name}.yaml",
        "one run": str(meta.get("command", "")),
    }
