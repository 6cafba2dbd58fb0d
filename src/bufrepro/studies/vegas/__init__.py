"""The vegas study: Yew, Ong & Ahmad (seed 004), TCP Vegas with packet spacing over a handover."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bufrepro.kit import space as kspace
from bufrepro.kit.declaration import Declaration
from bufrepro.kit.study import Block, Study, Tables
from bufrepro.studies.vegas import declarations, params

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


class Vegas(Study):
    """TCP Vegas with and without packet spacing over a Mobile IP handover (patched ns-2).

    CN - N1 - MAP - AR1/AR2 (802.11) - MN, the home agent beside N1: Tables II-III (standard vs
    spaced Vegas, packet size 64-1024 B, 100 s), Table IV (spaced Vegas, RTT 40-150 ms, 500 s)
    and Tables V-VI (BDP, X = buffer / BDP, buffer = X * BDP, computed from the config).
    ns-2.35 has no IPv6/HMIPv6: its Mobile IPv4 over 802.11 with DSDV stands in (the notes
    table lists what differs). Runs on the patched ns-2 (ns2/patches/0002, spacing_).

    Modules: params (grid, checks, template and parser variables), tables (Tables II-IV), bdp
    (Tables V-VI), claims, notes, compare, series (the throughput series) and plots.
    """

    name = params.NAME
    title = (
        "Yew, Ong & Ahmad: TCP Vegas with packet spacing over a handover (004; HMIPv6 -> "
        "ns-2 Mobile IPv4, patched ns-2)"
    )
    # A default run costs about 1-2 s of ns (500 s simulated); 20 make a job of 20-40 s, so that
    # a job's own start-up (Python, the config, an ns server) is a few per cent of it.
    runs_per_job = 20
    grid_keys = params.KEYS
    path_labels = MappingProxyType(
        {
            "setup": "",
            "variant": "",
            "packet_bytes": "pkt",
            "rtt_ms": "rtt",
            "buffer": "buf",
            "start_s": "start",
        }
    )
    unstated = (
        "claims.spacing_frac",
        "claims.step_frac",
        "readings.packet.rtt_ms",
        "readings.packet.start_s",
        "readings.rtt.start_s",
        "setups.packet.warmup_s",
        "setups.rtt.warmup_s",
        "setups.rtt.duration_s",
        "topology.other_queue_pkts",
        "wireless.data_rate_mbps",
        "wireless.basic_rate_mbps",
        "wireless.ifq_pkts",
        "wireless.home_gap_m",
        "mobility.fn1_to_fn2_mps",
        "tcp.window_pkts",
        "tcp.tick_s",
        "tcp.vegas_alpha",
        "tcp.vegas_beta",
        "tcp.vegas_gamma",
        "bdp.packet_bytes",
        "bdp.x_decimals",
    )
    reported = (
        "tcp_delay_ms_mean",
        "tcp_delay_ms_p95",
        "tcp_throughput_kbps",
        "tcp_goodput_kbps",
        "tcp_efficiency_pct",
        "delay_per_throughput",
        "tcp_sent_pkts",
        "tcp_retransmitted_pkts",
        "tcp_drops_total",
        "tcp_drops_wired",
        "tcp_drops_wireless",
        "tcp_stranded_pkts",
        "tcp_loss_rate",
        "link_utilisation",
        "link_queue_avg_pkts",
    )
    report_metrics = (
        "tcp_delay_ms_mean",
        "tcp_throughput_kbps",
        "tcp_efficiency_pct",
        "delay_per_throughput",
        "tcp_drops_total",
        "tcp_stranded_pkts",
    )
    figures = ("packet_size", "rtt", "buffer_ratio", "throughput_over_time")
    derived = ("throughput_series",)
    tables = ("notes", "bdp", "consistency", "shapes")
    report_tables = ("notes", "bdp", "consistency", "shapes")
    table_formats = MappingProxyType({"bdp": "%.6f", "throughput_series": "%.6f"})
    diff_view = (
        "table",
        "setup",
        "variant",
        "packet_bytes",
        "rtt_ms",
        "buffer",
        "start_s",
        "published_column",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "rel_diff",
        "in_ci",
        "matches_printed",
    )

    def points(self, block: Block) -> list[tuple[Any, ...]]:
        """The union of the sweeps' cross products, in config order, each point once."""
        return params.points(block)

    def grid_text(self, block: Block) -> dict[str, list[Any]]:
        """The setups and each sweep as the report lists them."""
        return params.grid_text(block)

    def reading_block(self, block: Block, cells: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
        """The runs one reading's diff reads: Tables II-IV's (setup, variant) cells, each setup
        at its reading, within the cells."""
        from bufrepro.studies.vegas.tables import TABLES

        keys = self.grid_keys
        setup, variant = keys.index("setup"), keys.index("variant")
        points = [
            p
            for p in kspace.read_points(block["readings"], keys, self.points(block), cells)
            if (p[setup], p[variant]) in set(TABLES.values())
        ]
        return {**block, "grid": kspace.sweep_grid(self.grid_keys, points)}

    def check(self, block: Block) -> list[str]:
        """Windows, sweeps, RTTs above the fixed delays, starts before the end, Tables V-VI."""
        return params.check(block)

    def declarations(self) -> Mapping[str, Declaration[Block]]:
        """The patched ns-2 alone (declarations.py)."""
        return declarations.DECLARATIONS

    def derive(
        self, block: Block, runs: pd.DataFrame, run_dirs: Sequence[Path]
    ) -> dict[str, pd.DataFrame]:
        """throughput_series: the series.tsv of each RTT-setup run of the series seed."""
        from bufrepro.studies.vegas.series import throughput_series

        return {"throughput_series": throughput_series(block, run_dirs)}

    def compare(self, block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
        """diff (Tables II-VI), claims, notes and bdp (Tables V-VI beside our Table IV)."""
        from bufrepro.studies.vegas.compare import compare
        from bufrepro.studies.vegas.consistency import consistency

        return {**compare(block, tables), "consistency": consistency(block, tables)}

    def diff(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s diff alone (Tables II-VI)."""
        from bufrepro.studies.vegas.compare import diff

        return diff(block, tables["summary"], tables["published"])

    def draw(self, block: Block, tables: Tables) -> dict[str, Figure]:
        """Tables II-III, Table IV, Tables V-VI and the throughput over time."""
        from bufrepro.studies.vegas.plots import draw

        return draw(tables)


STUDY = Vegas()
