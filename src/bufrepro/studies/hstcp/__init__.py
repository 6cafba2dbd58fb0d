"""The hstcp study: Barman, Smaragdakis & Matta, HighSpeed TCP utilisation vs buffer (seed 003)."""

# Simulation: ns-2's native HighSpeed TCP (windowOption_ 8) over one bottleneck, DropTail and
# (Adaptive) RED, buffer = a fraction of the R1-R2 bandwidth-delay product (Figs. 3, 4, 7, 8), and
# two competing flows under- and over-buffered (Figs. 5-6: module twoflow, rules/studies/hstcp.smk).
# Readings band (issue 13): pacing x access ratio at small buffers (module band, its own rule).
# Model: the package `model`. The paper prints no table: the "published" side is its claims
# (published/hstcp_claims.csv).
#
# At 1-2.5 Gb/s a full ns trace is out of the question: the scenario writes only flow-monitor
# samples and drops of the bottleneck into a named pipe that awk/hstcp/hstcp.awk reads as ns runs.

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from bufrepro.kit.declaration import Declaration, Side
from bufrepro.kit.study import Block, Study, Tables
from bufrepro.studies.hstcp import checks, declarations, params

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    import pandas as pd
    from matplotlib.figure import Figure

UNSTATED = (
    "claims.util_tol",
    "claims.fall_min",
    "claims.agree_tol",
    "claims.jain_tol",
    "topology.access_ratio",
    "topology.sink_delay_ms",
    "topology.access_queue_pkts",
    "tcp.window_pkts",
    "tcp.max_ssthresh_pkts",
    "tcp.tick_s",
    "tcp.start_s",
    "tcp.start_jitter_s",
    "tcp.pacing",
    "red.min_th_frac",
    "red.max_th_frac",
    "red.max_p",
    "red.q_weight",
    "red.gentle",
    "measure.duration_s",
    "measure.warmup_s",
    "measure.min_loss_epochs",
    "twoflow.rtts_ms",
    "twoflow.under_frac",
    "twoflow.over_frac",
    "twoflow.duration_s",
    "packet_bytes",
    "ns3.tcp_variant",
    "ns3.recovery",
    "ns3.sack",
    "ns3.delayed_ack_segments",
    "ns3.initial_window_pkts",
    "ns3.initial_rto_s",
    "ns3.min_rto_s",
)
REPORTED = (
    "link_utilisation",
    "loss_rate",
    "queue_avg_pkts",
    "queue_avg_frac",
    "queue_max_pkts",
    "drops",
    "goodput_mbps",
    "jain_index",
    "tput_ratio_short_long",
    "tput_min_max_ratio",
    # The judged window [window_start_s, duration]: the later of the warm-up and the transient
    # MSER-5 finds in the run's own utilisation series (steady_state 0: it had not settled).
    "window_start_s",
    "transient_end_s",
    "steady_state",
    "loss_epochs_min",
)


class Hstcp(Study):
    """HighSpeed TCP over one bottleneck: grid runs, two-flow runs, the fixed-point model."""

    name: ClassVar[str] = "hstcp"
    title: ClassVar[str] = (
        "Barman, Smaragdakis & Matta: HighSpeed TCP utilisation vs router buffer size (003)"
    )
    published: ClassVar[tuple[str, ...]] = ("hstcp_claims.csv", "hstcp_params.csv")
    # One 1-2.5 Gb/s run takes seconds to a minute (default profile), minutes at full scale.
    runs_per_job: ClassVar[int] = 5
    grid_keys: ClassVar[tuple[str, ...]] = params.KEYS
    path_labels: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"scenario": "", "queue": "", "buffer_frac": "frac"}
    )
    unstated: ClassVar[tuple[str, ...]] = UNSTATED
    reported: ClassVar[tuple[str, ...]] = REPORTED
    report_metrics: ClassVar[tuple[str, ...]] = (
        "link_utilisation",
        "loss_rate",
        "queue_avg_frac",
        "jain_index",
    )
    # Figs. 3, 4, 7, 8 (utilisation per scenario and queue), 5-6 (two flows), loss, fairness.
    figures: ClassVar[tuple[str, ...]] = (
        "fig3_droptail_s1",
        "fig4_droptail_s2",
        "fig7_red_s1",
        "fig8_red_s2",
        "fig5_twoflow_under",
        "fig6_twoflow_over",
        "loss_vs_buffer",
        "fairness_vs_buffer",
        "band_utilisation",
    )
    # compare() computes the model from the config (model.csv) and model_vs_sim.
    tables: ClassVar[tuple[str, ...]] = (
        "model",
        "model_vs_sim",
        "notes",
        "consistency",
        "shapes",
        "steady",
    )
    # Tables rules/studies/hstcp.smk writes (the two-flow runs); compare() reads
    # twoflow_summary, draw() twoflow_series.
    rule_tables: ClassVar[tuple[str, ...]] = (
        "twoflow_runs",
        "twoflow_summary",
        "twoflow_series",
        "band_runs",
        "band",
    )
    # ns-2's runs at the cells ns-3 runs on the scaled scenario (sides.py, scope hstcp/twin).
    reference_tables: ClassVar[tuple[str, ...]] = ("twin_summary",)
    report_tables: ClassVar[tuple[str, ...] | None] = (
        "model_vs_sim",
        "twoflow_summary",
        "band",
        "notes",
        "consistency",
        "shapes",
        "steady",
    )
    # hstcp has always written its diff with significant digits (%.6g; the others %.6f).
    diff_float_format: ClassVar[str] = "%.6g"
    table_formats: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "model": "%.9g",
            "model_vs_sim": "%.6g",
            "twoflow_runs": "%.6f",
            "twoflow_summary": "%.6f",
            "band_runs": "%.6g",
            "band": "%.6g",
        }
    )

    def points(self, block: Block) -> list[tuple[Any, ...]]:
        """The grid's points and the claims' own fractions (params.points)."""
        return params.points(block)

    def reading_block(self, block: Block, cells: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
        """The grid narrowed to `cells`, without the claims' own fractions: a reading diffs
        the published cells, and its claims say "untestable: no run at ..." where it has none."""
        narrowed = super().reading_block(block, cells)
        return {**narrowed, "claims": {**narrowed.get("claims", {}), "plan_points": False}}

    def check(self, block: Block) -> list[str]:
        """Window, RED thresholds, scenarios, counter wrap, two-flow settings (checks.py)."""
        return checks.check(block)

    def sides(self) -> Mapping[str, Side]:
        """The two-flow runs (Figs. 5-6), the pacing x access-ratio band's runs and ns-2's twins
        of the scaled scenario's ns-3 cells (sides.py), each run as a scope hstcp/<kind>."""
        from bufrepro.studies.hstcp import sides

        return sides.SIDES

    def declarations(self) -> Mapping[str, Declaration[Block]]:
        """ns-2 (its own: the paper ran ns-2) and ns-3 (declarations.py)."""
        return declarations.DECLARATIONS

    def compare(self, block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
        """diff, claims, model and model_vs_sim (compare.py); consistency (consistency.py)."""
        from bufrepro.studies.hstcp import compare
        from bufrepro.studies.hstcp.consistency import consistency

        return {**compare.compare(block, tables), "consistency": consistency(block, tables)}

    def claims(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s claims alone (compare.py)."""
        from bufrepro.studies.hstcp import compare

        return compare.claims(block, tables)

    def diff(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s diff alone (compare.py)."""
        from bufrepro.studies.hstcp import compare

        return compare.diff(block, tables)

    def draw(self, block: Block, tables: Tables) -> dict[str, Figure]:
        """Figs. 3-8, loss and fairness against the buffer (plots.py); the band (band_plot.py)."""
        from bufrepro.studies.hstcp import band_plot, plots

        return {**plots.draw(tables), band_plot.FIGURE: band_plot.draw(tables.get("band"))}

    def queue_words(self) -> Mapping[str, Any]:
        """Paper 003 by queue, its conclusion's claim, the figure's words."""
        from bufrepro.studies.hstcp import queues

        return queues.words()

    def queue_cells(self, block: Block, summary: pd.DataFrame) -> pd.DataFrame:
        """Queueing delay (Little's law) and utilisation per cell (queues.py)."""
        from bufrepro.studies.hstcp import queues

        return queues.cells(block, summary)


STUDY = Hstcp()
