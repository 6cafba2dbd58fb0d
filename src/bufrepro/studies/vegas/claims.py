"""The vegas study's claims (spacing, packet size, RTT boundaries, X = 0.835) as checks."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from bufrepro.kit import samples, verdicts
from bufrepro.kit.claims import Check, Claim, context, sample_check
from bufrepro.kit.study import Block
from bufrepro.studies.vegas import effects as fx
from bufrepro.studies.vegas.bdp import bdp_pkts, upper_split
from bufrepro.studies.vegas.params import KEYS, READING
from bufrepro.studies.vegas.tables import TABLES, cells, published_wide, reading_of

DIFFED = "diffed readings"
ALL = "all readings"
# Claim-cell columns -> our metric.
CLAIM_COLUMNS = {
    "delay": "tcp_delay_ms_mean",
    "tput": "tcp_throughput_kbps",
    "eff": "tcp_efficiency_pct",
    "ratio": "delay_per_throughput",
}
PAPER_COLUMNS = {
    "delay": "network_delay",
    "tput": "network_throughput",
    "eff": "network_efficiency",
    "ratio": "delay_wrt_throughput",
}
# Cells that differ only in the variant (or only along one swept key).
CELL = ("setup", "packet_bytes", "rtt_ms", "buffer", "start_s")


def _spacing_better(column: str, lower_is_better: bool) -> Any:
    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in df.groupby(list(CELL), sort=True):
            rows = {str(r["variant"]): r for r in g.to_dict("records")}
            if "standard" not in rows or "spacing" not in rows:
                continue
            std, spc = float(rows["standard"][column]), float(rows["spacing"][column])
            where = context(CELL, key)
            c_std, c_spc = fx.cell(rows["standard"], column), fx.cell(rows["spacing"], column)
            if c_std is not None and c_spc is not None:
                out.append(_spacing_test(where, column, (c_std, c_spc), lower_is_better, th))
                continue
            ok = spc < std if lower_is_better else spc > std
            out.append(Check(where, bool(ok), f"{column} {std:.3f} -> {spc:.3f} with spacing"))
        return out

    return check


def _spacing_test(
    where: str,
    column: str,
    pair: tuple[samples.Sample, samples.Sample],
    lower_is_better: bool,
    th: Mapping[str, float],
) -> Check:
    """Spacing against standard on one cell as a test (kit.verdicts): the 90 % interval of
    spacing minus standard, paired by seed (the paper's values: points), against spacing_frac
    of the standard's mean, the smallest effect of interest."""
    std, spc = pair
    tol = th["spacing_frac"] * abs(std.mean)
    what = f"{column}, standard -> spacing:"
    return sample_check(where, what, std, spc, tol, -1 if lower_is_better else 1, False)


def _along(
    df: pd.DataFrame, setup: str, along: str, minimum: int = 2
) -> list[tuple[tuple[Any, ...], pd.DataFrame]]:
    others = [k for k in ("variant", *CELL) if k != along]
    out = []
    for key, g in df[df["setup"] == setup].groupby(others, sort=True):
        g = g.sort_values(along)
        if g[along].nunique() >= minimum:
            out.append((key, g))
    return out


def _ctx(key: tuple[Any, ...], along: str) -> str:
    keys = [k for k in ("variant", *CELL) if k != along]
    return context(keys, key)


def _delay_rises(along: str, setup: str) -> Any:
    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in _along(df, setup, along):
            vals = list(zip(g[along], g["delay"], strict=True))
            rows = itertools.pairwise(g.to_dict("records"))
            for ((a0, v0), (a1, v1)), (r0, r1) in zip(itertools.pairwise(vals), rows, strict=True):
                where = f"{_ctx(key, along)}, {along} {a0:g}->{a1:g}"
                test = fx.step(where, "delay (ms):", r0, r1, "delay", th["step_frac"], 1)
                out.append(test or Check(where, bool(v1 > v0), f"delay {v0:.2f} -> {v1:.2f} ms"))
        return out

    return check


def _best_512(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _along(df, "packet", "packet_bytes", minimum=3):
        where = _ctx(key, "packet_bytes")
        rows = g.to_dict("records")
        test = fx.smallest_at(where, rows, "packet_bytes", 512, "ratio", th["step_frac"])
        if test is not None:  # our cells: 512 B below every other size by step_frac
            out.append(test)
            continue
        best = int(g.sort_values("ratio", kind="mergesort")["packet_bytes"].iloc[0])
        text = ", ".join(
            f"{int(p)}: {r:.3f}" for p, r in zip(g["packet_bytes"], g["ratio"], strict=True)
        )
        out.append(Check(where, best == 512, f"smallest at {best} B ({text})"))
    return out


def _ratio_falls_to_512(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
    out = []
    for key, g in _along(df, "packet", "packet_bytes"):
        vals = list(zip(g["packet_bytes"], g["ratio"], strict=True))
        rows = itertools.pairwise(g.to_dict("records"))
        for ((p0, v0), (p1, v1)), (r0, r1) in zip(itertools.pairwise(vals), rows, strict=True):
            want_fall = p1 <= 512
            where = f"{_ctx(key, 'packet_bytes')}, {int(p0)}->{int(p1)} B"
            sign = -1 if want_fall else 1
            test = fx.step(where, "delay/throughput:", r0, r1, "ratio", th["step_frac"], sign)
            if test is not None:
                out.append(test)
                continue
            ok = v1 < v0 if want_fall else v1 > v0
            out.append(
                Check(
                    where,
                    bool(ok),
                    f"delay/throughput {v0:.3f} -> {v1:.3f} ({'falls' if want_fall else 'rises'} "
                    "expected)",
                )
            )
    return out


def _upper_boundary(upper: Sequence[float]) -> Any:
    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in _along(df, "rtt", "rtt_ms"):
            hi = g[g["rtt_ms"].isin(upper)]
            lo = g[~g["rtt_ms"].isin(upper)]
            for (_, a), (_, b) in itertools.product(lo.iterrows(), hi.iterrows()):
                where = (
                    f"{_ctx(key, 'rtt_ms')}, RTT {a['rtt_ms']:g} (lower) vs {b['rtt_ms']:g} (upper)"
                )
                test = fx.step(
                    where,
                    "throughput (kb/s):",
                    a.to_dict(),
                    b.to_dict(),
                    "tput",
                    th["step_frac"],
                    1,
                )
                if test is not None:
                    out.append(test)
                    continue
                out.append(
                    Check(
                        where,
                        bool(b["tput"] > a["tput"]),
                        f"throughput {a['tput']:.1f} vs {b['tput']:.1f} kb/s",
                    )
                )
        return out

    return check


def _x_0835(block: Block) -> Any:
    cfg = block["bdp"]
    bw = block["topology"]["bottleneck_mbps"]
    stated = {float(r) for r in cfg["upper_rtt_ms"]}

    def check(df: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in _along(df, "rtt", "rtt_ms", minimum=3):
            upper = upper_split(list(g["rtt_ms"].astype(float)), list(g["tput"]))
            # BDP in packets of the cells' own size (eq. 5's "MTU" is the packet size).
            buffer, size = float(g["buffer"].iloc[0]), int(g["packet_bytes"].iloc[0])
            xs = [buffer / bdp_pkts(r, bw, size) for r in sorted(upper)]
            x = sum(xs) / len(xs)
            ctx = _ctx(key, "rtt_ms")
            found = ", ".join(f"{r:g}" for r in sorted(upper))
            text = f"upper boundary (largest throughput gap) {found} ms"
            x_ok = abs(x - 0.835) <= th["x_tolerance"]
            x_text = (
                f"X = {x:.3f} over the split found: configuration arithmetic (buffer / BDP of its "
                f"configured RTTs), not a measurement (paper 0.835, "
                f"{'within' if x_ok else 'beyond'} {th['x_tolerance']:g} of it)"
            )
            rows = g.to_dict("records")
            split = fx.gap(ctx, rows, upper, th["step_frac"])
            resampled = fx.resampled_split(ctx, rows, stated, x_text)
            if split is None or resampled is None:  # no per-seed values: the split of the means
                out.append(Check(ctx, upper == stated, f"{text}; {x_text}"))
                continue
            # the split holds only where its gap is a real difference (step_frac), and where
            # resampling the seeds finds it (SPLIT_SHARE of the draws)
            said = fx.split_outcome(split, upper == stated)
            out.append(
                Check(
                    ctx, said == verdicts.word("claim", "holds"), f"{text}; {split.evidence}", said
                )
            )
            out.append(resampled)
        return out

    return check


def claims_for(block: Block) -> tuple[Claim, ...]:
    """The paper's claims as checks (some depend on the configured upper boundary)."""
    upper = [float(r) for r in block["bdp"]["upper_rtt_ms"]]
    both = (DIFFED, ALL)
    return (
        Claim(
            "spacing_lowers_delay",
            both,
            "Packet spacing lowers the network delay (abstract, conclusion).",
            "Per cell (setup, packet size, RTT, buffer, start): spacing's mean delay < standard's. "
            "A test (kit.verdicts): the 90 % interval of spacing minus standard, paired by seed "
            "against spacing_frac of the standard's mean.",
            _spacing_better("delay", True),
        ),
        Claim(
            "spacing_raises_throughput",
            both,
            "Packet spacing raises the network throughput (abstract, conclusion).",
            "Per cell: spacing's mean throughput > standard's.",
            _spacing_better("tput", False),
        ),
        Claim(
            "spacing_raises_efficiency",
            both,
            "Packet spacing raises the network efficiency (abstract).",
            "Per cell: spacing's mean efficiency > standard's.",
            _spacing_better("eff", False),
        ),
        Claim(
            "delay_rises_with_packet_size",
            both,
            "As the packet size increases the network delay increases (Section VI.i).",
            "Per variant and reading of the packet setup: delay rises at each packet-size step. "
            "Each step a test (kit.verdicts): the 90 % interval of the rise, paired by seed, "
            "against step_frac of the two cells' mean.",
            _delay_rises("packet_bytes", "packet"),
        ),
        Claim(
            "ratio_falls_until_512",
            both,
            "Delay w.r.t. throughput falls as the packet size grows, up to 512 B; it rises at "
            "1024 B (Fig. 4).",
            "Per variant and reading: delay/throughput falls at each step up to 512 B and rises "
            "at each step above; on our runs each step a test against step_frac of the two "
            "cells' mean.",
            _ratio_falls_to_512,
        ),
        Claim(
            "best_packet_512",
            both,
            "512 B is the best packet size: the lowest delay w.r.t. throughput (Table III, "
            "conclusion).",
            "Per variant and reading: the smallest mean delay/throughput is at 512 B. On our "
            "runs tests: 512 B's ratio below every other size's by more than step_frac of the "
            "two cells' mean.",
            _best_512,
        ),
        Claim(
            "delay_rises_with_rtt",
            both,
            "As the RTT increases the network delay increases (Fig. 6).",
            "Per variant and reading of the RTT setup: delay rises at each RTT step (on our runs "
            "a test against step_frac of the two cells' mean).",
            _delay_rises("rtt_ms", "rtt"),
        ),
        Claim(
            "rtt_upper_boundary",
            both,
            "RTTs of 100-150 ms (the upper boundary) give higher throughput with spacing than "
            "40-90 ms (the lower boundary) (Section VI.ii).",
            "Per variant and reading of the RTT setup: every RTT in bdp.upper_rtt_ms has a higher "
            "mean throughput than every other RTT (one comparison per pair; on our runs a test "
            "against step_frac of the pair's mean).",
            _upper_boundary(upper),
        ),
        Claim(
            "x_0835",
            both,
            "X = buffer / BDP over the upper boundary is 0.835 (Tables V-VI, conclusion).",
            "Per variant and reading of the RTT setup: split the RTTs in two at the largest gap "
            "between their sorted mean throughputs; the upper group is the text's upper boundary "
            "(X = buffer / BDP over it is arithmetic on the configuration, reported, not "
            "judged). Two tests: the split's gap (the upper group's lowest throughput over the "
            "lower's highest) clears step_frac of their mean, and resampling the seeds (the "
            "same seeds in every cell) finds the stated split in at least 95 % of 1000 draws "
            "(fails when 95 % find one other split); the paper's values are points, one draw.",
            _x_0835(block),
        ),
    )


def _in_reading(df: pd.DataFrame, block: Block) -> pd.DataFrame:
    """Rows of the diffed readings (packet: its RTT, buffer, start; rtt: its buffer, start)."""
    keep = df["setup"] == "__none__"
    for setup, reading in block["readings"].items():
        part = df["setup"] == setup
        for key in ("rtt_ms", *READING):
            if key in reading:
                part &= df[key] == reading[key]
        keep |= part
    out: pd.DataFrame = df[keep]
    return out


def our_claim_cells(
    block: Block, summary: pd.DataFrame, runs: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Our cell means per scope with the columns the checks read (delay, tput, eff, ratio);
    given our per-seed `runs`, each column's Sample beside it (`<col>_seeds`, the tests)."""
    wide = cells(summary)
    keys = [tuple(k) for k in wide[[*KEYS]].itertuples(index=False)]
    for col, metric in CLAIM_COLUMNS.items():
        wide[col] = wide[metric] if metric in wide else float("nan")
        got = samples.of_runs(runs, KEYS, metric) if runs is not None and metric in runs else {}
        wide[f"{col}_seeds"] = pd.Series([got.get(k) for k in keys], index=wide.index, dtype=object)
    base = wide[[*KEYS, *CLAIM_COLUMNS, *(f"{c}_seeds" for c in CLAIM_COLUMNS)]]
    return pd.concat(
        [_in_reading(base, block).assign(scope=DIFFED), base.assign(scope=ALL)],
        ignore_index=True,
    )


def paper_claim_cells(block: Block, published: pd.DataFrame) -> pd.DataFrame:
    """Tables II-IV as cells with the claim columns, in both scopes; each value also as a
    published point (`<col>_seeds`), judged by the same tests as our runs."""
    parts = []
    for table in TABLES:
        wide = published_wide(published, table, reading_of(block, table))
        for col, metric in PAPER_COLUMNS.items():
            wide[col] = wide[metric]
            wide[f"{col}_seeds"] = pd.Series(
                [samples.Sample.published(v) for v in wide[metric]], index=wide.index, dtype=object
            )
        parts.append(wide[[*KEYS, *PAPER_COLUMNS, *(f"{c}_seeds" for c in PAPER_COLUMNS)]])
    paper = pd.concat(parts, ignore_index=True)
    return pd.concat([paper.assign(scope=DIFFED), paper.assign(scope=ALL)], ignore_index=True)
