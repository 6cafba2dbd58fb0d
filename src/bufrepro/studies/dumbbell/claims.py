"""The claims of papers 000 (DropTail) and 001 (RED), as checks over tables of cell means."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bufrepro.kit import prose, verdicts
from bufrepro.kit.claims import Check, Claim, context, monotone, monotone_test

if TYPE_CHECKING:
    import pandas as pd

# The paper behind each queue discipline (the claims' scope).
SEED_FILES = {"DropTail": "000_2aa0e755a3c7bea1.txt", "RED": "001_b65ae81af7f065fb.txt"}
# Queues whose drop thresholds scale with the buffer (RED's min_th and max_th): the buffer sets
# the queue there even where it never fills, so the "AQM, not the buffer, sets the queue"
# reading (claim: unbound) never applies to them.
SCALED_THRESHOLDS = frozenset({"RED"})


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


def packet_time_ms(packet_bytes: float, mbps: float) -> float:
    """One packet's transmission time at the bottleneck, in ms."""
    return packet_bytes * 8 / (mbps * 1e3)


def _per_seed(g: pd.DataFrame, low: int, high: int, metric: str) -> dict[int, float]:
    """Per seed, the metric's mean over the buffers in [low, high]."""
    part = g[(g["buffer"] >= low) & (g["buffer"] <= high)]
    means = part.groupby("seed")[metric].mean()
    return {int(str(k)): float(v) for k, v in means.items()}


def _small_vs_large_test(runs: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    """The claim as a test on per-seed values (kit.verdicts): small minus large buffers' delay,
    paired by seed, against one packet's transmission time x delay_tolerance_pkts; where the
    delay holds, the throughput must not fall below (1 - similar_frac) x the large buffers'."""
    out = []
    for key, g in runs.groupby(["queue", "plr", "bottleneck_mbps"], sort=True):
        large, small = _per_seed(g, 15, 50, "delay"), _per_seed(g, 5, 10, "delay")
        if not small or not large:
            continue
        mbps = float(g["bottleneck_mbps"].iloc[0])
        tol = th["delay_tolerance_pkts"] * packet_time_ms(th["packet_bytes"], mbps)
        iv = verdicts.difference(large, small)
        outcome = verdicts.claim_outcome(iv, tol, -1)
        t_large = _per_seed(g, 15, 50, "throughput")
        t_iv = verdicts.difference(t_large, _per_seed(g, 5, 10, "throughput"))
        t_tol = th["similar_frac"] * abs(sum(t_large.values()) / len(t_large))
        if outcome == verdicts.word("claim", "holds") and not t_iv.low >= -t_tol:
            worse = t_iv.high < -t_tol
            outcome = verdicts.word("claim", "fails" if worse else "undecided")
        a, b = sum(large.values()) / len(large), sum(small.values()) / len(small)
        ran = str(g["queue_ran"].iloc[0]) if "queue_ran" in g else str(key[0])
        unbound = "" if ran in SCALED_THRESHOLDS else _never_binds(g)
        if unbound:
            outcome = verdicts.word("claim", "unbound")
        text = verdicts.evidence("delay (ms), buffers 15-50 -> 5-10:", a, b, iv, tol, outcome)
        out.append(
            Check(
                context(["queue", "plr", "bw"], key),
                outcome == verdicts.word("claim", "holds"),
                text + unbound,
                outcome,
            )
        )
    return out


def _never_binds(g: pd.DataFrame) -> str:
    """Where the most packets any run held waiting under buffers 15-50 (queue_max) stays below
    the smallest buffer 5-10 compared, no buffer compared ever binds: the evidence's addition
    saying so (verdicts.yaml's unbound_evidence); "" where a buffer binds or the runs lack
    queue_max."""
    if "queue_max" not in g:
        return ""
    most = float(g[(g["buffer"] >= 15) & (g["buffer"] <= 50)]["queue_max"].max())
    smallest = float(g[(g["buffer"] >= 5) & (g["buffer"] <= 10)]["buffer"].min())
    if not most < smallest:
        return ""
    return prose.fill(
        verdicts.words()["unbound_evidence"], most=most, large="15-50", smallest=smallest
    ).rstrip()


def _delay_tol(step: pd.DataFrame, th: Mapping[str, float]) -> float:
    """A delay step's tolerance: delay_tolerance_pkts packet times at the faster bottleneck of
    the step (the smaller packet time)."""
    mbps = float(step["bottleneck_mbps"].max())
    return th["delay_tolerance_pkts"] * packet_time_ms(th["packet_bytes"], mbps)


def _throughput_tol(step: pd.DataFrame, th: Mapping[str, float]) -> float:
    """A throughput step's tolerance: similar_frac of the step's mean throughput (what the
    claims call similar)."""
    return th["similar_frac"] * float(step["throughput"].abs().mean())


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


def _flat_from_15_test(runs: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    """flat_from_15 as a test on per-seed values (kit.verdicts.flat_outcome): per cell and
    buffer above 15, the paired per-seed change from buffer 15 of the delay (tolerance
    delay_tolerance_pkts packet times) and of the throughput (similar_frac of buffer 15's)."""
    out = []
    for key, g in runs.groupby(["queue", "plr", "bottleneck_mbps"], sort=True):
        base = g[g["buffer"] == 15]
        if base.empty:
            continue
        mbps = float(g["bottleneck_mbps"].iloc[0])
        for b in sorted(g[g["buffer"] > 15]["buffer"].unique()):
            above = g[g["buffer"] == b]
            for metric, tol in (
                ("delay", th["delay_tolerance_pkts"] * packet_time_ms(th["packet_bytes"], mbps)),
                ("throughput", th["similar_frac"] * abs(float(base["throughput"].mean()))),
            ):
                v0 = dict(zip(base["seed"], base[metric].astype(float), strict=True))
                v1 = dict(zip(above["seed"], above[metric].astype(float), strict=True))
                iv = verdicts.difference(v0, v1)
                outcome = verdicts.flat_outcome(iv, tol)
                text = f"{metric}, buffer 15 -> {b:g}:"
                out.append(
                    Check(
                        f"{context(['queue', 'plr', 'bw'], key)}, buffer 15->{b:g}",
                        outcome == verdicts.word("claim", "holds"),
                        verdicts.evidence(
                            text, base[metric].mean(), above[metric].mean(), iv, tol, outcome
                        ),
                        outcome,
                    )
                )
    return out


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "small_buffers_better",
        ("DropTail", "RED"),
        "Buffers of 5-10 give lower delay at similar throughput than buffers of 15-50.",
        "Per (queue, plr, bw): mean delay over buffers 5-10 < mean over 15-50, and mean "
        "throughput over 5-10 >= (1 - similar_frac) x mean over 15-50. On our runs a test "
        "(kit.verdicts): the per-seed delay difference, paired by seed, against "
        "delay_tolerance_pkts packet times at the bottleneck; throughput not below "
        "(1 - similar_frac) x 15-50's; where no run under buffers 15-50 ever held as many "
        "packets waiting as the smallest buffer 5-10 (link_queue_max_pkts), the buffer never "
        "binds: no meaningful difference, the AQM (not the buffer) sets the queue (never under "
        "RED, whose thresholds scale with the buffer).",
        _small_vs_large,
        _small_vs_large_test,
    ),
    Claim(
        "flat_from_15",
        ("DropTail", "RED"),
        "Delay and throughput stop changing from buffer 15 upward.",
        "Per (queue, plr, bw): every buffer above 15 is within flat_frac of buffer 15, "
        "for delay and for throughput. On our runs a test (kit.verdicts): each buffer's "
        "per-seed change from buffer 15, paired by seed, inside +-delay_tolerance_pkts packet "
        "times (delay) and +-similar_frac of buffer 15's (throughput).",
        _flat_from_15,
        _flat_from_15_test,
    ),
    Claim(
        "loss_lowers_throughput",
        ("DropTail", "RED"),
        "More packet loss lowers TCP throughput.",
        "Per (queue, bw, buffer) and each step up in plr: throughput falls.",
        monotone("plr", "throughput", False, ("queue", "bottleneck_mbps", "buffer")),
        monotone_test(
            "plr", "throughput", False, ("queue", "bottleneck_mbps", "buffer"), _throughput_tol
        ),
    ),
    Claim(
        "loss_raises_delay",
        ("DropTail",),
        "More packet loss raises the delay (paper 000, Experimental Results).",
        "Per (queue, bw, buffer) and each step up in plr: delay rises.",
        monotone("plr", "delay", True, ("queue", "bottleneck_mbps", "buffer")),
        monotone_test("plr", "delay", True, ("queue", "bottleneck_mbps", "buffer"), _delay_tol),
    ),
    Claim(
        "loss_lowers_delay",
        ("RED",),
        "More packet loss lowers the delay (paper 001, Section 4).",
        "Per (queue, bw, buffer) and each step up in plr: delay falls.",
        monotone("plr", "delay", False, ("queue", "bottleneck_mbps", "buffer")),
        monotone_test("plr", "delay", False, ("queue", "bottleneck_mbps", "buffer"), _delay_tol),
    ),
    Claim(
        "faster_link_more_throughput",
        ("DropTail", "RED"),
        "A faster bottleneck raises throughput.",
        "Per (queue, plr, buffer) and each step up in bottleneck bandwidth: throughput rises.",
        monotone("bottleneck_mbps", "throughput", True, ("queue", "plr", "buffer")),
        monotone_test(
            "bottleneck_mbps", "throughput", True, ("queue", "plr", "buffer"), _throughput_tol
        ),
    ),
    Claim(
        "faster_link_less_delay",
        ("DropTail", "RED"),
        "A faster bottleneck lowers delay.",
        "Per (queue, plr, buffer) and each step up in bottleneck bandwidth: delay falls.",
        monotone("bottleneck_mbps", "delay", False, ("queue", "plr", "buffer")),
        monotone_test("bottleneck_mbps", "delay", False, ("queue", "plr", "buffer"), _delay_tol),
    ),
)
