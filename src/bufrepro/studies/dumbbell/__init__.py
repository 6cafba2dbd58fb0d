"""The dumbbell study: Ahmad et al., DropTail (seed 000) and RED (seed 001), Tables 3-5."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from bufrepro.kit.declaration import Declaration
from bufrepro.kit.study import Block, Study, Tables
from bufrepro.studies.dumbbell import declarations, http, params

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

# The HTTP reading's metrics that the summary carries (awk/dumbbell/http.awk defines them).
HTTP_METRICS = (
    "http_response_ms_mean",
    "http_response_ms_p95",
    "http_objects",
    "http_requests",
    "http_unfinished",
    "http_data_delay_ms_mean",
    "http_throughput_kbps",
    "http_drops_total",
)


class Dumbbell(Study):
    """Three TCP flows and one CBR flow over a lossy low-bandwidth bottleneck, buffer swept."""

    name = "dumbbell"
    title = "Ahmad et al.: buffer sizes for heterogeneous traffic, DropTail (000) and RED (001)"
    # A default run costs 30-110 ms of ns (served, backends.ns2.serve); 250 make a job of about
    # 10-30 s, so that a job's own start-up (Python, the config, an ns server) is a few per cent.
    runs_per_job = 250
    grid_keys = ("queue", "plr", "bottleneck_mbps", "buffer")
    path_labels: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"queue": "", "plr": "plr", "bottleneck_mbps": "bw", "buffer": "buf"}
    )
    unstated = (
        "claims.delay_tolerance_pkts",
        "claims.similar_frac",
        "topology.access_delay_ms",
        "topology.bottleneck_delay_ms",
        "topology.access_queue_pkts",
        "topology.reverse_queue_pkts",
        "topology.buffer_counts",
        "tcp.agent",
        "tcp.application",
        "http.rate_per_mbps",
        "http.version",
        "compare.delay_definition",
        "tcp.syn",
        "tcp.tick_s",
        "tcp.start_s",
        "tcp.start_jitter_s",
        "cbr.packet_bytes",
        "cbr.interval_s",
        "cbr.start_s",
        "red.min_th_frac",
        "red.max_th_frac",
        "red.q_weight",
        "red.max_p",
        "red.gentle",
        "red.mean_pktsize_bytes",
        "red.bytes_mode",
        "ns3.tcp_variant",
        "ns3.recovery",
        "ns3.sack",
        "ns3.delayed_ack_segments",
        "ns3.min_rto_s",
        "ns3.error_model_at",
        "measure.duration_s",
        "measure.warmup_s",
    )
    reported = (
        "tcp_delay_ms_mean",
        "tcp_throughput_kbps",
        "tcp_goodput_kbps",
        "tcp_drops_total",
        "tcp_drops_queue",
        "tcp_drops_link",
        "tcp_loss_rate",
        "cbr_throughput_kbps",
        "cbr_loss_rate",
        "cbr_drops_queue",
        "cbr_drops_link",
        "link_utilisation",
        "link_queue_avg_pkts",
        # the most packets waiting at the bottleneck (does the buffer bind? the today's-queues
        # section's buffer claims ask it)
        "link_queue_max_pkts",
        # The HTTP reading's (absent from FTP runs, so FTP summaries stay as they were).
        *HTTP_METRICS,
        # Made by compare() from each run's metrics (delays.py), never by a parser: named here
        # so that a space of readings may compare them (compare.delay_definition).
        *http.DERIVED_DELAYS,
    )
    # The HTTP reading's own metrics and the derived delays are absent from FTP runs; under HTTP
    # lib/throughput.awk leaves tcp_goodput_kbps out when a FullTcp packet carries seq -1.
    optional_metrics = (*HTTP_METRICS, *http.DERIVED_DELAYS, "tcp_goodput_kbps")
    report_metrics = (
        "tcp_delay_ms_mean",
        "tcp_throughput_kbps",
        "tcp_drops_total",
        "tcp_drops_queue",
        "tcp_drops_link",
        "cbr_throughput_kbps",
        "cbr_loss_rate",
        "link_utilisation",
    )
    figures = ("delay_vs_buffer", "throughput_vs_buffer", "delay_vs_throughput")
    # What the published tables imply on their own, and our shapes beside the paper's (compare()
    # writes both beside the diff).
    tables = ("consistency", "shapes")
    # The terminal view of the diff: the columns the old generic view showed for this study.
    diff_view = (
        "table",
        "queue",
        "side",
        "plr",
        "bottleneck_mbps",
        "buffer",
        "published_column",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "pi_low",
        "pi_high",
        "rel_diff",
        "z",
        "in_ci",
        "in_pi",
    )

    def check(self, block: Block) -> list[str]:
        """warmup_s below duration_s, and RED's min_th_frac below max_th_frac."""
        return params.config_problems(self.name, block)

    def declarations(self) -> Mapping[str, Declaration[Block]]:
        """ns-2 (its own: the papers ran ns-2) and ns-3 (declarations.py)."""
        return declarations.DECLARATIONS

    def compare(self, block: Block, tables: Tables) -> dict[str, pd.DataFrame]:
        """{"diff", "claims", "shapes", "consistency"} from the summary and the published table."""
        from bufrepro.studies.dumbbell.compare import compare
        from bufrepro.studies.dumbbell.consistency import consistency

        made = compare(block, tables["summary"], tables["published"], tables.get("runs"))
        return {**made, "consistency": consistency(block, tables["published"])}

    def claims(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s claims alone (without the shape verdicts)."""
        from bufrepro.studies.dumbbell.compare import verdicts

        return verdicts(block, tables["summary"], tables["published"], tables.get("runs"))

    def diff(self, block: Block, tables: Tables) -> pd.DataFrame:
        """compare()'s diff alone: each published value against ours."""
        from bufrepro.studies.dumbbell.compare import diff

        return diff(block, tables["summary"], tables["published"], tables.get("runs"))

    def draw(self, block: Block, tables: Tables) -> dict[str, Figure]:
        """Delay and throughput vs buffer, and delay vs throughput (what the columns read)."""
        from bufrepro.studies.dumbbell import delays
        from bufrepro.studies.dumbbell.plots import draw

        if "tcp" not in block:  # no config: the FTP reading's metrics
            return draw(tables["summary"], tables["published"])
        summary = tables["summary"]
        if "runs" in tables:
            summary = delays.with_definition(block, summary, tables["runs"])
        return draw(summary, tables["published"], delays.published_metrics(block))

    def queue_words(self) -> Mapping[str, Any]:
        """Papers 000 and 001 by queue, their conclusion's claim, the figure's words."""
        from bufrepro.studies.dumbbell import queues

        return queues.words()

    def queue_cells(self, block: Block, summary: pd.DataFrame) -> pd.DataFrame:
        """TCP delay and throughput per cell (queues.py)."""
        from bufrepro.studies.dumbbell import queues

        return queues.cells(summary)


STUDY = Dumbbell()
