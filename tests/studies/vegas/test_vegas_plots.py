"""The vegas figures drawn from synthetic tables: one per name of STUDY.figures."""

from __future__ import annotations

from pathlib import Path

from vegas_tables import paper_cells, published, runs_of, series, summary_of

from bufrepro.kit.figures import save_all
from bufrepro.pipeline import configuration
from bufrepro.studies.vegas import STUDY


def test_every_figure_is_drawn(tmp_path: Path) -> None:
    block = configuration.load()["vegas"]
    cells = paper_cells(block)
    tables = {"runs": runs_of(cells), "summary": summary_of(cells), "published": published()}
    tables["vegas"] = tables["published"]
    tables["throughput_series"] = series()
    tables.update(STUDY.compare(block, tables))
    figures = STUDY.draw(block, tables)
    assert tuple(figures) == STUDY.figures
    for path in save_all(figures, tmp_path):
        assert path.stat().st_size > 10_000
