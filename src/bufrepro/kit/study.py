"""The study interface: what a reproduced paper plugs into the pipeline, with defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from bufrepro.kit import grid
from bufrepro.kit.declaration import Block as Block
from bufrepro.kit.declaration import Declaration, Side

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

Tables = Mapping[str, "pd.DataFrame"]


class Study:
    """One reproduced study. Subclass it in `bufrepro.studies.<name>` and expose `STUDY`.

    Every method receives the study's validated config block. The engine calls these methods and
    never names a study; a study never imports another study, the registry or the pipeline.
    What it runs on each simulator it declares in declarations(). Files of a study live in one
    place per layer: config/<name>.yaml (+ .schema.yaml), tcl/<name>/, awk/<name>/,
    rules/studies/<name>.smk (optional), published/<name>.csv, report/captions/<name>/ and
    tests/studies/<name>/.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # Files under published/ (default: "<name>.csv"), each with its <stem>.spec.yaml; compare()
    # gets each as tables[<stem>], and the first also as tables["published"].
    published: ClassVar[tuple[str, ...]] = ()
    # Runs one job carries (render, simulate and parse in one process); config may override.
    runs_per_job: ClassVar[int] = 20
    grid_keys: ClassVar[tuple[str, ...]] = ()
    path_labels: ClassVar[Mapping[str, str]] = MappingProxyType({})
    # Dotted keys of the block the paper leaves unstated; each needs a reason in `assumptions`.
    unstated: ClassVar[tuple[str, ...]] = ()
    # Metrics summarised per cell (summary.csv), and those the report's tables show.
    reported: ClassVar[tuple[str, ...]] = ()
    report_metrics: ClassVar[tuple[str, ...]] = ()
    # Reported metrics a run may lack by design (e.g. the ping metrics of setups without ping);
    # every other reported metric must be defined in every run (checked on aggregation).
    optional_metrics: ClassVar[tuple[str, ...]] = ()
    # Figures (results/<name>/figures/<f>.png, caption report/captions/<name>/<f>.rst).
    figures: ClassVar[tuple[str, ...]] = ()
    # Tables derive() writes from the runs (results/<name>/tables/<t>.csv).
    derived: ClassVar[tuple[str, ...]] = ()
    # Tables the study's own rules (rules/studies/<name>.smk) write; compare() and draw() get them.
    rule_tables: ClassVar[tuple[str, ...]] = ()
    # Summaries the study's own rules write of its own simulator's runs at cells apart from its
    # grid (e.g. a further simulator's scaled scenario): the cross-simulator table's own side
    # there, beside summary.csv (an empty file: no such run).
    reference_tables: ClassVar[tuple[str, ...]] = ()
    # Tables compare() writes besides diff and claims; the report shows these and `derived`.
    tables: ClassVar[tuple[str, ...]] = ()
    # Which of derived + tables the report shows (default: all of them).
    report_tables: ClassVar[tuple[str, ...] | None] = None
    # Columns of the diff the terminal view shows (default: all but bookkeeping columns).
    diff_view: ClassVar[tuple[str, ...]] = ()
    # How the diff's floats are written, and those of other tables ({table: "%.6f"}; a table
    # not named is written with pandas' defaults).
    diff_float_format: ClassVar[str] = "%.6f"
    table_formats: ClassVar[Mapping[str, str]] = MappingProxyType({})

    # -- the grid ---------------------------------------------------------------------------
    def points(self, block: Block) -> list[tuple[Any, ...]]:
        """The grid's points as value tuples in grid_keys order (default: the cross product)."""
        return grid.cross(block["grid"], self.grid_keys)

    def runs(self, block: Block) -> list[grid.RunPoint]:
        """Every run of the study: points x seeds."""
        labels = tuple(self.path_labels.get(k, k) for k in self.grid_keys)
        return grid.expand(self.name, self.grid_keys, self.points(block), block["seeds"], labels)

    def grid_text(self, block: Block) -> dict[str, list[Any]]:
        """The grid as the report lists it, {label: values}."""
        return {k: list(block["grid"][k]) for k in self.grid_keys}

    def reading_block(self, block: Block, cells: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
        """The block one reading of the readings stage runs: the grid narrowed to `cells`.

        Default (a cross-product grid): each cell key takes the cells' values. A grid whose
        published tables each name a reading overrides it (kit.space.read_points, sweep_grid).
        """
        return {**block, "grid": {**block["grid"], **cells}}

    def check(self, block: Block) -> list[str]:
        """Config problems the schema cannot see, each naming its key (none by default)."""
        return []

    def sides(self) -> Mapping[str, Side]:
        """The study's side runs beside its grid, by kind (hstcp's two-flow runs, ...): each a
        declaration with its own points, run by the one batch rule (none by default)."""
        return {}

    # -- its runs ---------------------------------------------------------------------------
    def declarations(self) -> Mapping[str, Declaration[Block]]:
        """Each simulator the study runs on, its own first (the one its published comparison
        is made on), with that simulator's declaration (kit.declaration); the config
        key simulators.<study> picks which run."""
        raise NotImplementedError(f"{self.name}: declarations()")

    def simulators(self) -> tuple[str, ...]:
        """Every simulator the study can run on, its own first."""
        return tuple(self.declarations())

    def own_simulator(self) -> str:
        """The simulator of the study's published comparison (results/<name>/runs/)."""
        return self.simulators()[0]

    # -- tables and figures -----------------------------------------------------------------
    def derive(
        self, block: Block, runs: pd.DataFrame, run_dirs: Sequence[Path]
    ) -> dict[str, pd.DataFrame]:
        """Tables made from per-run files (kept_files), one per name of `derived`."""
        return {}

    def compare(self, block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
        """{"diff", "claims", and each name of `tables`} from runs, summary, published, derived."""
        raise NotImplementedError(f"{self.name}: compare()")

    def diff(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s "diff" alone (what each reading of the readings stage is scored on);
        a study whose compare() makes more overrides it with the diff's own path."""
        return self.compare(block, tables)["diff"]

    def claims(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s "claims" alone, from the same tables (the today's-queues section judges
        each queue's runs with it); a study whose compare() makes more overrides it with the
        claims' own path."""
        return self.compare(block, tables)["claims"]

    def draw(self, block: Block, tables: Tables) -> dict[str, Figure]:
        """Figures by name (the names of `figures`) from every table of the study."""
        raise NotImplementedError(f"{self.name}: draw()")

    # -- today's queues: the papers' claims on a further simulator's other queues -----------
    def queue_words(self) -> Mapping[str, Any]:
        """The study's words for the report's "today's queues" section (its queues.yaml):
        `papers` ({queue the paper sized, the claims' scope: {"paper": its name, "conclusion":
        the claim carrying its buffer-sizing conclusion}}), `panel` (a figure panel's title,
        {grid key} placeholders) and `axes` (the figure's words: throughput, delay, legend).
        {} (the default): the study takes no part."""
        return {}

    def queue_cells(self, block: Block, summary: pd.DataFrame) -> pd.DataFrame:
        """One row per cell of a summary table: panel (its title, queue_words' `panel` filled),
        queue, buffer, throughput and delay (the axes queue_words names): the today's-queues
        figure's points."""
        raise NotImplementedError(f"{self.name}: queue_cells()")

    def required_metrics(self) -> tuple[str, ...]:
        """The reported metrics every run must have, defined (reported but not optional)."""
        return tuple(m for m in self.reported if m not in self.optional_metrics)

    def published_files(self) -> tuple[str, ...]:
        """The study's files under published/."""
        return self.published or (f"{self.name}.csv",)

    def float_format(self, table: str) -> str | None:
        """The float format a table of this study is written with."""
        if table == "diff":
            return self.table_formats.get("diff", self.diff_float_format)
        return self.table_formats.get(table)

    def shown_tables(self) -> tuple[str, ...]:
        """The further tables the report shows."""
        if self.report_tables is not None:
            return self.report_tables
        return (*self.derived, *self.tables)
