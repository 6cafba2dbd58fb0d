"""The ramya study's claims: six statements of the paper checked on our cells and on its tables."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.kit.claims import Check, Claim, context, evaluate_claims, sample_check
from bufrepro.kit.study import Block
from bufrepro.studies.ramya import effects as fx
from bufrepro.studies.ramya.claim_cells import ALL, our_claim_cells, paper_claim_cells
from bufrepro.studies.ramya.params import READING

__all__ = ["ALL", "CLAIMS", "judged", "our_claim_cells", "paper_claim_cells", "verdicts"]

SEED_FILE = "002_5d42423dd5aa5b6d.txt"


def _groups(df: pd.DataFrame, by: Sequence[str], along: str, minimum: int = 2) -> list[Any]:
    out = []
    for key, g in df.groupby(list(by), sort=True, dropna=False):
        g = g.dropna(subset=[along]).sort_values(along)
        if g[along].nunique() >= minimum:
            out.append((key, g))
    return out


def _falls_slightly(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput"]), READING, "buffer"):
        ctx = context(READING, key)
        vals = list(zip(g["buffer"], g["tput"], strict=True))
        spread = fx.cells(g.to_dict("records"), "tput")
        if spread is not None:  # our cells: each step and the whole fall a test (tput_frac)
            for i, ((b0, _), (b1, _)) in enumerate(itertools.pairwise(vals)):
                c0, c1 = spread[i], spread[i + 1]
                tol = th["tput_frac"] * (c0.mean + c1.mean) / 2
                where = f"{ctx}, buffer {b0}->{b1}"
                out.append(sample_check(where, "goodput:", c0, c1, tol, -1, False))
            first, last = spread[0], spread[-1]
            out.append(
                fx.slight_fall(
                    f"{ctx}, buffer {vals[0][0]}->{vals[-1][0]} overall",
                    first,
                    last,
                    th["tput_frac"] * first.mean,
                    th["slight_frac"] * first.mean,
                )
            )
            continue
        for (b0, v0), (b1, v1) in itertools.pairwise(vals):
            out.append(Check(f"{ctx}, buffer {b0}->{b1}", bool(v1 < v0), f"{v0:.0f} -> {v1:.0f}"))
        (b0, v0), (b1, v1) = vals[0], vals[-1]
        fall = (v0 - v1) / v0
        out.append(
            Check(
                f"{ctx}, buffer {b0}->{b1} overall",
                bool(0 < fall <= th["slight_frac"]),
                f"fall {fall:+.1%} (slight: above 0, at most {th['slight_frac']:.0%})",
            )
        )
    return out


def _rtt_sharp(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["rtt"]), READING, "buffer"):
        ctx = context(READING, key)
        vals = list(zip(g["buffer"], g["rtt"], strict=True))
        spread = fx.cells(g.to_dict("records"), "rtt")
        for i, ((b0, v0), (b1, v1)) in enumerate(itertools.pairwise(vals)):
            where = f"{ctx}, buffer {b0}->{b1}"
            if spread is not None:  # each step a test: the rise against step_frac
                c0, c1 = spread[i], spread[i + 1]
                tol = th["step_frac"] * (c0.mean + c1.mean) / 2
                out.append(sample_check(where, "RTT (s):", c0, c1, tol, 1, False))
                continue
            out.append(Check(where, bool(v1 > v0), f"{v0:.3f} -> {v1:.3f} s"))
        (b0, v0), (b1, v1) = vals[0], vals[-1]
        where = f"{ctx}, buffer {b0}->{b1} overall"
        factor = th["sharp_factor"]
        if spread is not None:  # the largest buffer's RTT reaches sharp_factor x the smallest's
            target = spread[0].scaled(factor)
            what = f"RTT (s), x{factor:g} the smallest buffer's -> the largest's:"
            tol = th["step_frac"] * target.mean
            out.append(sample_check(where, what, target, spread[-1], tol, 1, True))
            continue
        out.append(
            Check(where, bool(v1 >= factor * v0), f"x{v1 / v0:.1f} (sharp: at least x{factor:g})")
        )
    return out


def _in_range(b: float, th: Mapping[str, float]) -> bool:
    return fx.optimum(b, th)


def _knee(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput"]), READING, "buffer"):
        spread = fx.cells(g.to_dict("records"), "tput")
        if spread is not None:
            out += fx.knee_tests(context(READING, key), g, spread, th)
            continue
        target = th["knee_frac"] * g["tput"].max()
        knee = g[g["tput"] >= target]["buffer"].min()
        out.append(
            Check(
                context(READING, key),
                _in_range(knee, th),
                f"knee at buffer {knee} (first to reach {th['knee_frac']:.0%} of "
                f"{g['tput'].max():.0f})",
            )
        )
    return out


def _power(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput", "rtt"]), READING, "buffer"):
        tests = fx.power_tests(context(READING, key), g, th)
        if tests is not None:
            out += tests
            continue
        power = g["tput"] / g["rtt"]
        best = g.loc[power.idxmax(), "buffer"]
        out.append(
            Check(
                context(READING, key),
                _in_range(best, th),
                f"throughput/RTT largest at buffer {best}",
            )
        )
    return out


def _tolerates(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _groups(df.dropna(subset=["tput", "drop_share"]), READING, "buffer"):
        ctx = context(READING, key)
        first = g.iloc[0]
        b, share = first["buffer"], float(first["drop_share"])
        tests = fx.tolerate_tests(f"{ctx}, buffer {b}", g, th)
        if tests is not None:
            out += tests
            continue
        low, high = th["drop_share_low"], th["drop_share_high"]
        out.append(
            Check(
                f"{ctx}, buffer {b}",
                bool(low <= share <= high),
                f"drop share {share:.2%} (about 2%: {low:.0%}-{high:.0%})",
            )
        )
        out.append(
            Check(
                f"{ctx}, buffer {b}",
                bool(share >= g["drop_share"].max()),
                f"drop share {share:.2%}, largest of all buffers {g['drop_share'].max():.2%}",
            )
        )
        ratio = float(first["tput"]) / g["tput"].max()
        out.append(
            Check(
                f"{ctx}, buffer {b}",
                bool(ratio >= th["tolerate_frac"]),
                f"throughput {ratio:.0%} of the largest (tolerated: at least "
                f"{th['tolerate_frac']:.0%})",
            )
        )
    return out


def _remedy(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    by = ("tcp", "bottleneck_mbps", "delay_scale", "buffer")
    for key, g in _groups(df.dropna(subset=["tput", "rtt"]), by, "rwnd_bytes"):
        fit = g[g["tput"] >= th["remedy_goodput_frac"] * g["tput"].max()].iloc[0]
        largest = g.iloc[-1]
        where = f"{context(by, key)}, rwnd {fit['rwnd_bytes']} vs {largest['rwnd_bytes']} B"
        c_fit, c_big = fx.cell(fit, "rtt"), fx.cell(largest, "rtt")
        if c_fit is not None and c_big is not None:  # the fit's RTT at most remedy_rtt_frac's
            frac = th["remedy_rtt_frac"]
            target = c_big.scaled(frac)
            what = f"ping RTT (s), {frac:.0%} of the largest window's -> the fitted window's:"
            out.append(
                sample_check(where, what, target, c_fit, th["step_frac"] * target.mean, -1, True)
            )
            continue
        ratio = float(fit["rtt"]) / float(largest["rtt"])
        out.append(
            Check(
                where,
                bool(ratio <= th["remedy_rtt_frac"]),
                f"ping RTT {fit['rtt'] * 1000:.0f} vs {largest['rtt'] * 1000:.0f} ms "
                f"({ratio:.0%}) at {fit['tput'] / g['tput'].max():.0%} of the largest goodput",
            )
        )
    return out


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "goodput_falls_slightly",
        ("Table 1", "Table 1" + ALL),
        "Goodput falls slightly as the buffer grows (Table 1; abstract, conclusion).",
        "Per reading (tcp, B2, rwnd, delays): goodput falls at each buffer step, and from the "
        "smallest to the largest buffer by more than 0 and at most slight_frac. On our cells "
        "tests (kit.verdicts, paired by seed; the paper's values as points): each step's fall "
        "against tput_frac "
        "of the two cells' mean; the whole fall's 90 % interval above tput_frac and at most "
        "slight_frac of the smallest buffer's goodput.",
        _falls_slightly,
    ),
    Claim(
        "rtt_grows_sharply",
        ("Table 1", "Table 1" + ALL, "Table 5", "Table 5" + ALL, "Fig. 2"),
        "RTT grows sharply as the buffer grows (TCP RTT in Tables 1 and 5, ping RTT in Fig. 2).",
        "Per reading: RTT rises at each buffer step, and the largest buffer's RTT is at least "
        "sharp_factor times the smallest's. On our runs each step is a test (kit.verdicts): "
        "the 90 % interval of the rise, paired by seed, against step_frac of the two cells' mean "
        "RTT; the "
        "largest buffer's RTT reaches sharp_factor x the smallest's within step_frac of it.",
        _rtt_sharp,
    ),
    Claim(
        "optimum_3_to_6",
        ("Table 5", "Table 5" + ALL),
        "The throughput-latency optimum lies between 3 and 6 buffers (Table 5).",
        "Per reading: the knee - the smallest buffer whose throughput reaches knee_frac of the "
        "largest - lies in [optimum_low, optimum_high]. On our cells tests: each buffer below "
        "optimum_low falls short of knee_frac of the largest throughput by more than tput_frac "
        "of it, and the largest buffer up to optimum_high reaches it within tput_frac.",
        _knee,
    ),
    Claim(
        "optimum_3_to_6_power",
        ("Table 5", "Table 5" + ALL),
        "The same optimum, read as the largest power (throughput / RTT).",
        "Per reading: the buffer with the largest throughput / RTT lies in "
        "[optimum_low, optimum_high]. On our cells tests: every buffer outside the range has a "
        "power below the best one inside by more than power_frac of it (the power's sd by the "
        "delta method).",
        _power,
    ),
    Claim(
        "tolerates_2pct_drops",
        ("Table 5", "Table 5" + ALL),
        "TCP tolerates about 2% drops at a 1-frame buffer, the highest drop share of Table 5.",
        "Per reading, at the smallest buffer: drop share (drops / data packets sent) in "
        "[drop_share_low, drop_share_high]; it is the largest of all buffers; throughput at least "
        "tolerate_frac of the largest. On our cells tests: the share's 90 % interval inside the "
        "range; above every other buffer's by more than drop_frac; the throughput reaching "
        "tolerate_frac of the largest within tput_frac of it.",
        _tolerates,
    ),
    Claim(
        "rwnd_remedy",
        ("remedy",),
        "A receiver that advertises a window sized to the path removes most of the large-buffer "
        "delay (conclusion).",
        "Per (tcp, B2, delays, buffer) of the latency setup: the smallest advertised window "
        "reaching remedy_goodput_frac of the largest goodput has a ping RTT of at most "
        "remedy_rtt_frac of the largest window's (on our cells a test: not above it by more "
        "than step_frac of it; the window is chosen on the means).",
        _remedy,
    ),
)


def judged(
    block: Block,
    summary: pd.DataFrame,
    published: pd.DataFrame,
    runs: pd.DataFrame | None = None,
) -> dict[str, pd.DataFrame]:
    """{"claims", "shapes"}: the claims' verdicts on our cells (tests paired by seed, given our
    `runs`) and on the paper's own tables (the same tests, its values as points), each with the
    verdict on its shape beside; and our shapes beside the paper's."""
    from bufrepro.studies.ramya.shapes import shape_verdicts, shapes

    th = dict(block["claims"])
    ours = our_claim_cells(block, summary, runs)
    paper = paper_claim_cells(block, published)
    claims = evaluate_claims(
        ours,
        paper,
        CLAIMS,
        th,
        scope_key="scope",
        seed_files={s: SEED_FILE for c in CLAIMS for s in c.scopes},
    )
    table = shapes(ours, paper, th)
    return {"claims": shape_verdicts(claims, table, th["holds_frac"]), "shapes": table}


def verdicts(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame, runs: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The claims' verdicts on our cells and on the paper's own tables (with their shapes')."""
    return judged(block, summary, published, runs)["claims"]
