"""What a study plugs into the pipeline: its grid, template, metrics, diff, claims and figures."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from bufrepro.grid import RunPoint

Block = Mapping[str, Any]


@dataclass(frozen=True)
class Study:
    """One reproduced study. Functions receive the study's validated config block."""

    name: str
    title: str
    seed_files: tuple[str, ...]
    template: str
    grid_keys: tuple[str, ...]
    path_labels: Mapping[str, str]
    unstated: tuple[str, ...]
    reported: tuple[str, ...]
    report_metrics: tuple[str, ...]
    figures: tuple[str, ...]
    # Template variables of a run (only validated values).
    params: Callable[[Block, RunPoint], dict[str, Any]]
    # AWK parameters of a run: t0, t1, t_end, max_age, link_from, link_to, link_bps.
    parse_args: Callable[[Block, RunPoint], dict[str, Any]]
    # (diff, claims) from the summary and the published table.
    compare: Callable[[Block, pd.DataFrame, pd.DataFrame], tuple[pd.DataFrame, pd.DataFrame]]
    # Figures by name (the names of `figures`) from the summary and the published table.
    draw: Callable[[pd.DataFrame, pd.DataFrame], dict[str, Figure]]
    ns: str = "stock"
    extra: Mapping[str, Any] = field(default_factory=dict)
    # File under published/ the generic compare step reads ("" = "<name>.csv").
    published: str = ""
    # Generic rules (run_ns2, parse_trace, compare_published) that the study's own
    # rules/studies/<name>.smk replaces; the generic ones then do not match its paths.
    own_rules: frozenset[str] = frozenset()
    # Config problems the schema cannot see, each naming its key (none by default).
    check: Callable[[Block], list[str]] | None = None
    # Further CSV tables under results/<name>/tables/ that the report shows.
    report_tables: tuple[str, ...] = ()
    # The grid points as value tuples in grid_keys order, when the grid is not the cross
    # product of block["grid"][key] over grid_keys (None: that cross product).
    points: Callable[[Block], list[tuple[Any, ...]]] | None = None
    # The grid as the report lists it, {label: values} (None: block["grid"][key] per key).
    grid_text: Callable[[Block], dict[str, list[Any]]] | None = None

    @property
    def published_file(self) -> str:
        """The study's file under published/."""
        return self.published or f"{self.name}.csv"
