"""The claims of papers 000 (DropTail) and 001 (RED), as checks over tables of cell means."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bufrepro.kit.claims import Check, Claim, context, monotone

if TYPE_CHECKING:
    import pandas as pd

# The paper behind each queue discipline (the claims' scope).
SEED_FILES = {"DropTail": "000_2aa0e755a3c7bea1.txt", "RED": "001_b65ae81af7f065fb.txt"}


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
