"""The dumbbell study: Ahmad et al., DropTail (seed 000) and RED (seed 001), Tables 3-5."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bufrepro.claims import Check, Claim, context, evaluate_claims, monotone
from bufrepro.studies.base import Block, Study

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from bufrepro.grid import RunPoint

KEYS = ("queue", "plr", "bottleneck_mbps", "buffer")
SEED_FILES = {"DropTail": "000_2aa0e755a3c7bea1.txt", "RED": "001_b65ae81af7f065fb.txt"}
SINKS: dict[str, str] = {"Sack1": "TCPSink/Sack1", "Newreno": "TCPSink", "Reno": "TCPSink"}
CBR_FID = 9
# Published column -> our metric.
PUBLISHED_METRICS = {
    "tcp_delay_ms": "tcp_delay_ms_mean",
    "tcp_throughput_kbps": "tcp_throughput_kbps",
    "packets_lost": "tcp_drops_total",
}
UNSTATED = (
    "topology.access_delay_ms",
    "topology.bottleneck_delay_ms",
    "topology.access_queue_pkts",
    "topology.reverse_queue_pkts",
    "tcp.agent",
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
    "measure.duration_s",
    "measure.warmup_s",
)
REPORTED = (
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
)
REPORT_METRICS = (
    "tcp_delay_ms_mean",
    "tcp_throughput_kbps",
    "tcp_drops_total",
    "tcp_drops_queue",
    "tcp_drops_link",
    "cbr_throughput_kbps",
    "cbr_loss_rate",
    "link_utilisation",
)


def params(block: Block, point: RunPoint) -> dict[str, Any]:
    """Template variables of one dumbbell run, from the validated config block."""
    buffer = int(point.get("buffer"))
    red = block["red"]
    min_th = max(1.0, red["min_th_frac"] * buffer)
    max_th = max(min_th + 1.0, red["max_th_frac"] * buffer)
    topo = block["topology"]
    return {
        "study": point.study,
        "seed": point.seed,
        "queue": point.get("queue"),
        "plr": point.get("plr"),
        "bottleneck_mbps": point.get("bottleneck_mbps"),
        "buffer": buffer,
        "tcp": dict(block["tcp"]),
        "tcp_sink_agent": SINKS[block["tcp"]["agent"]],
        "tcp_start_s": block["tcp"]["start_s"],
        "tcp_start_jitter_s": block["tcp"]["start_jitter_s"],
        "cbr": dict(block["cbr"]),
        "cbr_fid": CBR_FID,
        "red": dict(red),
        "red_min_th": round(min_th, 6),
        "red_max_th": round(max_th, 6),
        "red_linterm": round(1.0 / red["max_p"], 6),
        "red_gentle": "true" if red["gentle"] else "false",
        "access_bw_mbps": topo["access_bw_mbps"],
        "access_delay_ms": topo["access_delay_ms"],
        "bottleneck_delay_ms": topo["bottleneck_delay_ms"],
        "access_queue_pkts": topo["access_queue_pkts"],
        "reverse_queue_pkts": topo["reverse_queue_pkts"],
        "duration_s": block["measure"]["duration_s"],
        "trace_file": "out.tr",
    }


def parse_args(block: Block, point: RunPoint) -> dict[str, Any]:
    """AWK parameters: the measurement window, accounting limits, the 4->5 bottleneck."""
    measure = block["measure"]
    return {
        "t0": measure["warmup_s"],
        "t1": measure["duration_s"],
        "t_end": measure["duration_s"],
        "max_age": measure["max_in_flight_age_s"],
        "link_from": 4,
        "link_to": 5,
        "link_bps": round(point.get("bottleneck_mbps") * 1e6),
    }


def _small_vs_large(cells: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in cells.groupby(["queue", "plr", "bottleneck_mbps"], sort=True):
        small = g[(g["buffer"] >= 5) & (g["buffer"] <= 10)]
        large = g[(g["buffer"] >= 15) & (g["buffer"] <= 50)]
        if small.empty or large.empty:
            continue
        d_s, d_l = small["delay"].mean(), large["delay"].mean()
        t_s, t_l = small["throughput"].mean(), large["throughput"].mean()
        ok = bool(d_s < d_l and t_s >= (1 - th["similar_frac"]) * t_l)
        out.append(
            Check(
                context(["queue", "plr", "bw"], key),
                ok,
                f"delay {d_s:.1f} vs {d_l:.1f} ms, throughput {t_s:.1f} vs {t_l:.1f} kb/s",
            )
        )
    return out


def _flat_from_15(cells: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in cells.groupby(["queue", "plr", "bottleneck_mbps"], sort=True):
        base = g[g["buffer"] == 15]
        above = g[g["buffer"] > 15]
        if base.empty or above.empty:
            continue
        d0, t0 = float(base["delay"].iloc[0]), float(base["throughput"].iloc[0])
        dev_d = float((above["delay"] - d0).abs().max() / d0)
        dev_t = float((above["throughput"] - t0).abs().max() / t0)
        ok = dev_d <= th["flat_frac"] and dev_t <= th["flat_frac"]
        out.append(
            Check(
                context(["queue", "plr", "bw"], key),
                ok,
                f"largest change above buffer 15: delay {dev_d:.1%}, throughput {dev_t:.1%}",
            )
        )
    return out


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "small_buffers_better",
        ("DropTail", "RED"),
        "Buffers of 5-10 give lower delay at similar throughput than buffers of 15-50.",
        "Per (queue, plr, bw): mean delay over buffers 5-10 < mean over 15-50, and mean "
        "throughput over 5-10 >= (1 - similar_frac) x mean over 15-50.",
        _small_vs_large,
    ),
    Claim(
        "flat_from_15",
        ("DropTail", "RED"),
        "Delay and throughput stop changing from buffer 15 upward.",
        "Per (queue, plr, bw): every buffer above 15 is within flat_frac of buffer 15, "
        "for delay and for throughput.",
        _flat_from_15,
    ),
    Claim(
        "loss_lowers_throughput",
        ("DropTail", "RED"),
        "More packet loss lowers TCP throughput.",
        "Per (queue, bw, buffer) and each step up in plr: throughput falls.",
        monotone("plr", "throughput", False, ("queue", "bottleneck_mbps", "buffer")),
    ),
    Claim(
        "loss_raises_delay",
        ("DropTail",),
        "More packet loss raises the delay (paper 000, Experimental Results).",
        "Per (queue, bw, buffer) and each step up in plr: delay rises.",
        monotone("plr", "delay", True, ("queue", "bottleneck_mbps", "buffer")),
    ),
    Claim(
        "loss_lowers_delay",
        ("RED",),
        "More packet loss lowers the delay (paper 001, Section 4).",
        "Per (queue, bw, buffer) and each step up in plr: delay falls.",
        monotone("plr", "delay", False, ("queue", "bottleneck_mbps", "buffer")),
    ),
    Claim(
        "faster_link_more_throughput",
        ("DropTail", "RED"),
        "A faster bottleneck raises throughput.",
        "Per (queue, plr, buffer) and each step up in bottleneck bandwidth: throughput rises.",
        monotone("bottleneck_mbps", "throughput", True, ("queue", "plr", "buffer")),
    ),
    Claim(
        "faster_link_less_delay",
        ("DropTail", "RED"),
        "A faster bottleneck lowers delay.",
        "Per (queue, plr, buffer) and each step up in bottleneck bandwidth: delay falls.",
        monotone("bottleneck_mbps", "delay", False, ("queue", "plr", "buffer")),
    ),
)


def paper_cells(published: pd.DataFrame) -> pd.DataFrame:
    """The paper's table as cell means (existing and proposed rows of one cell averaged)."""
    cells = published.groupby(list(KEYS), sort=True)[["tcp_delay_ms", "tcp_throughput_kbps"]].mean()
    return cells.reset_index().rename(
        columns={"tcp_delay_ms": "delay", "tcp_throughput_kbps": "throughput"}
    )


def our_cells(summary: pd.DataFrame) -> pd.DataFrame:
    """Our cell means with the columns the claims read (delay, throughput)."""
    from bufrepro.stats import wide_means

    return wide_means(summary, KEYS).rename(
        columns={"tcp_delay_ms_mean": "delay", "tcp_throughput_kbps": "throughput"}
    )


def compare(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The diff of every published row, and every claim checked on ours and on the paper's."""
    from bufrepro.compare import diff_published

    diff = diff_published(published, summary, KEYS, PUBLISHED_METRICS)
    claims = evaluate_claims(
        our_cells(summary),
        paper_cells(published),
        CLAIMS,
        dict(block["claims"]),
        scope_key="queue",
        seed_files=SEED_FILES,
    )
    return diff, claims


def draw(summary: pd.DataFrame, published: pd.DataFrame) -> dict[str, Figure]:
    """Delay and throughput vs buffer, and delay vs throughput."""
    from bufrepro import plots

    return {
        "delay_vs_buffer": plots.metric_vs_buffer(
            summary, published, "tcp_delay_ms_mean", "tcp_delay_ms", "TCP delay (ms)"
        ),
        "throughput_vs_buffer": plots.metric_vs_buffer(
            summary,
            published,
            "tcp_throughput_kbps",
            "tcp_throughput_kbps",
            "TCP throughput (kb/s)",
        ),
        "delay_vs_throughput": plots.delay_vs_throughput(
            our_cells(summary), paper_cells(published)
        ),
    }


STUDY = Study(
    name="dumbbell",
    title="Ahmad et al.: buffer sizes for heterogeneous traffic, DropTail (000) and RED (001)",
    seed_files=tuple(SEED_FILES.values()),
    template="dumbbell.tcl.j2",
    grid_keys=KEYS,
    path_labels={"queue": "", "plr": "plr", "bottleneck_mbps": "bw", "buffer": "buf"},
    unstated=UNSTATED,
    reported=REPORTED,
    report_metrics=REPORT_METRICS,
    figures=("delay_vs_buffer", "throughput_vs_buffer", "delay_vs_throughput"),
    params=params,
    parse_args=parse_args,
    compare=compare,
    draw=draw,
)
