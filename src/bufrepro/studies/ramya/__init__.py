"""The ramya study (Ramya & Geetha, seed 002; OMNeT++/INET ported to ns-2) as a plug-in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bufrepro.kit import space as kspace
from bufrepro.kit.declaration import Declaration
from bufrepro.kit.study import Block, Study, Tables
from bufrepro.studies.ramya import declarations, params

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


class Ramya(Study):
    """Buffer size vs goodput and latency: client - R1 - R2 - server, the buffer at R1 in frames.

    Table 1 (goodput, RTT, drops; 1000 s), Table 5 (throughput, RTT, drops, average queue;
    180 s), the ping RTT of Section 4.1 (Fig. 2), the queue over time (Fig. 3) and the
    advertised-window remedy of the conclusion. The readings the paper leaves open (TCP variant,
    Table 1's window, Table 5's bottleneck) are swept side by side; `readings` names the cell
    each published table is diffed against, and the notes table shows how every reading fits.
    Modules: params (grid, checks, one run), cells (our cells, the published tables, the diff),
    claims, notes, series (the queue series of Fig. 3), plots.
    """

    name = params.NAME
    title = "Ramya & Geetha: buffer size vs goodput and latency (002; OMNeT++/INET ported to ns-2)"
    # With trace_level full (the text trace streamed into ramya.awk, then side.awk), the
    # largest-buffer runs of the default profile took 11.5 s (table1, 1000 s), 5.1 s (table5,
    # 180 s) and 10.0 s (latency, 300 s); counted in ns (tally) a default run costs about 1 s
    # (8 sampled runs: 8.9 s wall on a loaded machine; most runs of the default grid take 0.1-1 s),
    # so a job of 48 runs takes 10-60 s.
    runs_per_job = 48
    grid_keys = params.KEYS
    path_labels = MappingProxyType(dict(params.PATH_LABELS))
    unstated = params.UNSTATED
    reported = (
        "tcp_goodput_kbps",
        "tcp_throughput_kbps",
        "tcp_rtt_s_mean",
        "tcp_rtt_s_p95",
        "tcp_rtt_samples",
        "tcp_drops_total",
        "tcp_drops_queue",
        "tcp_sent_pkts",
        "tcp_loss_rate",
        "tcp_delay_ms_mean",
        "link_utilisation",
        "link_queue_avg_pkts",
        "link_queue_max_pkts",
        "qmon_queue_avg_pkts",
        "ping_rtt_ms_mean",
        "ping_rtt_ms_p95",
        "ping_loss_rate",
    )
    # Only the latency setup pings.
    optional_metrics = ("ping_rtt_ms_mean", "ping_rtt_ms_p95", "ping_loss_rate")
    report_metrics = (
        "tcp_goodput_kbps",
        "tcp_throughput_kbps",
        "tcp_rtt_s_mean",
        "tcp_drops_total",
        "tcp_loss_rate",
        "link_queue_avg_pkts",
        "ping_rtt_ms_mean",
    )
    figures = ("table1", "table5", "ping_rtt_vs_buffer", "queue_over_time", "rwnd_remedy")
    derived = ("queue_series",)
    tables = ("notes", "consistency", "shapes")
    report_tables = ("notes", "consistency", "shapes")
    diff_view = (
        "table",
        "setup",
        "tcp",
        "bottleneck_mbps",
        "rwnd_bytes",
        "delay_scale",
        "buffer",
        "published_column",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "rel_diff",
        "in_ci",
    )
    # queue_series.csv is written with %.6f, as before the port.
    table_formats = MappingProxyType({"queue_series": "%.6f"})

    def points(self, block: Block) -> list[tuple[Any, ...]]:
        """The union of the sweeps' cross products, in config order, each point once."""
        return params.points(block)

    def grid_text(self, block: Block) -> dict[str, list[Any]]:
        """The setups and each sweep as the report lists them."""
        return params.grid_text(block)

    def reading_block(self, block: Block, cells: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
        """The runs one reading's diff reads: each table's reading at the cells' buffers."""
        points = kspace.read_points(block["readings"], self.grid_keys, self.points(block), cells)
        return {**block, "grid": kspace.sweep_grid(self.grid_keys, points)}

    def check(self, block: Block) -> list[str]:
        """Each setup's window, the series seed, unique sweep names, the claims' ranges."""
        return params.check(block)

    def declarations(self) -> Mapping[str, Declaration[Block]]:
        """ns-2 alone (declarations.py)."""
        return declarations.DECLARATIONS

    def derive(
        self, block: Block, runs: pd.DataFrame, run_dirs: Sequence[Path]
    ) -> dict[str, pd.DataFrame]:
        """queue_series: the kept queue.tr of the series seed's latency runs."""
        from bufrepro.studies.ramya import series

        return {"queue_series": series.queue_series(block, run_dirs)}

    def compare(self, block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
        """The diff of Tables 1 and 5 against their readings, the claims, the notes and what the
        published tables imply on their own (consistency)."""
        from bufrepro.studies.ramya import cells, claims, notes
        from bufrepro.studies.ramya.consistency import consistency

        summary, published = tables["summary"], tables["published"]
        return {
            "diff": cells.diff(block, summary, published),
            **claims.judged(block, summary, published, tables.get("runs")),
            "notes": notes.notes(block, summary, published),
            "consistency": consistency(block, tables),
        }

    def diff(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s diff alone: Tables 1 and 5 against their readings."""
        from bufrepro.studies.ramya import cells

        return cells.diff(block, tables["summary"], tables["published"])

    def draw(self, block: Block, tables: Tables) -> dict[str, Figure]:
        """Tables 1 and 5, ping RTT (Fig. 2), the window remedy and the queue over time (Fig. 3)."""
        from bufrepro.studies.ramya import plots

        return plots.draw(tables["summary"], tables["published"], tables["queue_series"])


STUDY = Ramya()
