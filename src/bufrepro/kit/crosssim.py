"""The cross-simulator table: per cell and metric, two simulators' results and their agreement."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
from scipy.stats import binomtest

from bufrepro.kit import verdicts

# The default margin (a metric the margins table does not name): two simulators agree on a cell
# when the 95 % interval of the difference of their means lies inside +-WITHIN_FRAC of the
# larger mean (kit.verdicts.agreement) ...
WITHIN_FRAC = 0.10
# ... or inside the metric's own band where that is wider: drop counts near zero are compared
# within a few packets (one or two drops in a 20 s run are no disagreement).
BAND_FLOORS: tuple[tuple[str, float], ...] = ((r"drops", 3.0),)
AGREE = verdicts.word("agreement", "agree")
DIFFER = verdicts.word("agreement", "differ")
UNDECIDED = verdicts.word("agreement", "undecided")
NOT_JUDGED = verdicts.word("agreement", "not_judged")
COLS = ("n", "mean", "sd", "ci_low", "ci_high")
# The seeds a side beyond which an undecided cell is counted as needing "more than" this many.
MANY_SEEDS = 20


@dataclass(frozen=True)
class Margin:
    """A metric's agreement margin: absolute (in its units: utilisation), relative (a fraction
    of the larger mean: delays, throughputs), count (relative, at least `floor` events a run,
    tested by the exact conditional binomial test on the pooled events: drop counts) or rate
    (relative, the same test on the pooled events of `events` over the packets they imply)."""

    kind: str = "relative"
    value: float = WITHIN_FRAC
    floor: float = 0.0
    # A rate (kind "rate"): the count metrics whose sum is its numerator (e.g. a loss rate's
    # drops); the packets each side sent follow as events / rate, the exposure of the test.
    events: tuple[str, ...] = ()

    def band(self, mean_a: float, mean_b: float) -> float:
        """The band +- which the difference b - a must lie inside to agree."""
        if self.kind == "absolute":
            return self.value
        return verdicts.band(mean_a, mean_b, self.value, self.floor)


def floor(metric: str) -> float:
    """The metric's own band under the default margin (0 when it has none)."""
    return max((f for pattern, f in BAND_FLOORS if re.search(pattern, metric)), default=0.0)


def default_margin(metric: str) -> Margin:
    """The margin of a metric the margins table does not name: +-10 % (drops: >= 3 packets)."""
    return Margin("relative", WITHIN_FRAC, floor(metric))


def pooled_counts(
    a: tuple[int, float, float],
    b: tuple[int, float, float],
    confidence: float,
    events: tuple[float, float] | None = None,
) -> verdicts.Interval:
    """The interval of mean b - mean a for counts (events a run), from the pooled events: given
    their total K, b's share is binomial with p = E_b / (E_a + E_b) when the rates are equal, E
    a side's exposure (the conditional test of two Poisson counts, Przyborowski & Wilenski
    1940); its exact Clopper-Pearson interval (scipy.stats.binomtest) maps onto the difference
    of the rates, pi K / E_b - (1 - pi) K / E_a, which rises with pi. For counts the exposure is
    the runs (n) and the means are the events a run; for a rate, `events` gives each side's
    events a run, and the exposure is the runs' packets (n x events / rate)."""
    (na, ma, _), (nb, mb, _) = a, b
    if na < verdicts.MIN_VALUES or nb < verdicts.MIN_VALUES:
        return verdicts.Interval(mb - ma, math.nan, math.nan, min(na, nb), False)
    if events is None:
        ka, kb, ea, eb = round(ma * na), round(mb * nb), float(na), float(nb)
    else:
        ka, kb = round(events[0] * na), round(events[1] * nb)
        ea = ka / ma if ma > 0 else math.nan
        eb = kb / mb if mb > 0 else math.nan
    total = ka + kb
    if total <= 0 or not (ea > 0 and eb > 0):
        return verdicts.Interval(mb - ma, math.nan, math.nan, min(na, nb), False)
    ci = binomtest(kb, total, eb / (ea + eb)).proportion_ci(confidence, method="exact")

    def diff(pi: float) -> float:
        return pi * total / eb - (1.0 - pi) * total / ea

    return verdicts.Interval(mb - ma, diff(ci.low), diff(ci.high), min(na, nb), False)


def agreement(
    a: tuple[int, float, float],
    b: tuple[int, float, float],
    metric: str = "",
    margin: Margin | None = None,
    events: tuple[float, float] | None = None,
) -> tuple[str, verdicts.Interval, float]:
    """How two results (n, mean, sd) compare: agree / differ / undecided / not judged (kit
    .verdicts.agreement on the 95 % interval of b - a: Welch's, or the exact test of pooled
    events for a count margin, or for a rate margin given each side's events a run), with the
    interval and the band."""
    margin = margin or default_margin(metric)
    if margin.kind == "count":
        iv = pooled_counts(a, b, verdicts.AGREE_CONFIDENCE)
    elif margin.kind == "rate" and events is not None:
        iv = pooled_counts(a, b, verdicts.AGREE_CONFIDENCE, events)
    else:
        iv = verdicts.welch(a, b, verdicts.AGREE_CONFIDENCE)
    band = margin.band(a[1], b[1])
    if a[1] == b[1] and a[2] == 0 and b[2] == 0:
        return AGREE, iv, band
    return verdicts.agreement(iv, band), iv, band


def half_width(iv: verdicts.Interval, mean_a: float, mean_b: float) -> float:
    """The interval's half-width relative to the larger mean (NaN without one)."""
    scale = max(abs(mean_a), abs(mean_b))
    if not iv.judged or not scale:
        return math.nan
    return (iv.high - iv.low) / 2.0 / scale


def seeds_needed(iv: verdicts.Interval, band: float) -> float:
    """The seeds a side that would decide an undecided cell at the observed spread and
    difference: the half-width shrinks as 1 / sqrt(n) until the interval fits inside the band
    (agree) or clears it (differ); inf when the difference sits on the band's edge."""
    if not iv.judged:
        return math.nan
    half, d = (iv.high - iv.low) / 2.0, abs(iv.estimate)
    room = band - d if d < band else d - band
    if half <= room:
        return float(iv.n)
    if room <= 0:
        return math.inf
    return float(math.ceil(iv.n * (half / room) ** 2))


def _ratio(x: float, y: float) -> float:
    """y / x, nan where it is not a finite number (never inf)."""
    if not x or math.isnan(x) or math.isnan(y):
        return math.nan
    r = y / x
    return r if math.isfinite(r) else math.nan


def table(
    first: pd.DataFrame,
    second: pd.DataFrame,
    keys: Sequence[str],
    metrics: Sequence[str],
    names: tuple[str, str],
    margins: Mapping[str, Margin] | None = None,
) -> pd.DataFrame:
    """keys..., metric, <a>_n, <a>_mean, <a>_sd, <a>_ci_low, <a>_ci_high, <b>_..., ratio (b / a),
    diff (b - a), diff_low, diff_high (its 95 % interval), band, half_width (the interval's
    half-width relative to the larger mean), seeds_needed (a side, to decide an undecided cell
    at the observed spread), how, agree (how is "agree"). `margins`: per metric (default
    default_margin).

    `first` and `second` are two simulators' summary tables (kit.stats.summarise); a cell only
    one has (e.g. a queue only ns-3 runs) is listed after the compared ones with how
    "<simulator> only" and nothing compared.
    """
    a, b = names
    left = first[first["metric"].isin(metrics)][[*keys, "metric", *COLS]]
    right = second[second["metric"].isin(metrics)][[*keys, "metric", *COLS]]
    both = left.merge(right, on=[*keys, "metric"], how="outer", suffixes=(f"_{a}", f"_{b}"))
    both = both.rename(columns={f"{c}_{s}": f"{s}_{c}" for c in COLS for s in names})
    both["ratio"] = [
        _ratio(x, y) for x, y in zip(both[f"{a}_mean"], both[f"{b}_mean"], strict=True)
    ]
    sums = (_means(first, keys), _means(second, keys))
    rows = []
    for _, row in both.iterrows():
        if pd.isna(row[f"{a}_mean"]) or pd.isna(row[f"{b}_mean"]):
            only = b if pd.isna(row[f"{a}_mean"]) else a
            rows.append((math.nan,) * 6 + (f"{only} only",))
            continue
        trio = [tuple(row[f"{s}_{c}"] for c in ("n", "mean", "sd")) for s in names]
        sides = [(int(n), float(m), float(sd)) for n, m, sd in trio]
        metric = str(row["metric"])
        margin = (margins or {}).get(metric)
        cell = tuple(row[k] for k in keys)
        events = _events(margin, cell, sums) if margin and margin.kind == "rate" else None
        how, iv, band = agreement(sides[0], sides[1], metric, margin, events)
        half = half_width(iv, sides[0][1], sides[1][1])
        more = seeds_needed(iv, band) if how == UNDECIDED else math.nan
        rows.append((iv.estimate, iv.low, iv.high, band, half, more, how))
    cols = ["diff", "diff_low", "diff_high", "band", "half_width", "seeds_needed", "how"]
    both[cols] = pd.DataFrame(rows, columns=cols, index=both.index)
    both["agree"] = both["how"] == AGREE
    order = {m: i for i, m in enumerate(metrics)}
    both["_m"] = both["metric"].map(order)
    both["_only"] = both["how"].str.endswith(" only")
    both = both.sort_values(["_only", *keys, "_m"], kind="mergesort")
    return both.drop(columns=["_m", "_only"]).reset_index(drop=True)


def _means(summary: pd.DataFrame, keys: Sequence[str]) -> dict[tuple[object, ...], float]:
    """Each (cell..., metric)'s mean in a summary table."""
    cols = [*keys, "metric", "mean"]
    return {tuple(r[:-1]): float(r[-1]) for r in summary[cols].itertuples(index=False)}


def _events(
    margin: Margin,
    cell: tuple[object, ...],
    sums: tuple[dict[tuple[object, ...], float], dict[tuple[object, ...], float]],
) -> tuple[float, float] | None:
    """Each side's events a run of a rate: the sum of its event metrics' means on the cell
    (None where a side lacks one: the rate is then compared by Welch)."""
    out = []
    for side in sums:
        found = [side.get((*cell, m)) for m in margin.events]
        if not found or any(v is None or math.isnan(v) for v in found):
            return None
        out.append(sum(v for v in found if v is not None))
    return out[0], out[1]


def compared(cross: pd.DataFrame) -> pd.DataFrame:
    """The rows of cells both simulators ran."""
    return cross[~cross["how"].str.endswith(" only")]


def counts(cross: pd.DataFrame, study: str, metrics: Sequence[str]) -> pd.DataFrame:
    """Per metric: cells both simulators ran, and how many agree, differ, are undecided (the
    interval spans the band), not judged (too little data), and of the undecided how many
    would need more than MANY_SEEDS seeds a side at the observed spread."""
    rows = []
    for metric in metrics:
        part = compared(cross[cross["metric"] == metric])
        if part.empty:
            continue
        rows.append(
            {
                "study": study,
                "metric": metric,
                "cells": len(part),
                "agree": int((part["how"] == AGREE).sum()),
                "differ": int((part["how"] == DIFFER).sum()),
                "undecided": int((part["how"] == UNDECIDED).sum()),
                "not_judged": int((part["how"] == NOT_JUDGED).sum()),
                "undecided_over_20": int((part["seeds_needed"] > MANY_SEEDS).sum()),
            }
        )
    columns = ["study", "metric", "cells", "agree", "differ", "undecided", "not_judged"]
    columns.append("undecided_over_20")
    return pd.DataFrame(rows, columns=columns)


def against_each(
    reference: tuple[str, pd.DataFrame],
    others: Sequence[tuple[str, pd.DataFrame]],
    keys: Sequence[str],
    metrics: Sequence[str],
    margins: Mapping[str, Margin] | None = None,
) -> pd.DataFrame:
    """table() of the reference simulator's summary against each further simulator's, one
    after the other, with a column "simulator" naming the further one of each row (after
    "metric"; each further simulator's own columns are empty on the others' rows)."""
    name, first = reference
    parts = []
    for other, second in others:
        part = table(first, second, keys, metrics, (name, other), margins)
        part.insert(len(keys) + 1, "simulator", other)
        parts.append(part)
    order = [
        *keys,
        "metric",
        "simulator",
        *(f"{s}_{c}" for s in (name, *dict(others)) for c in COLS),
    ]
    both = pd.concat(parts, ignore_index=True)
    rest = ["ratio", "diff", "diff_low", "diff_high", "band", "half_width", "seeds_needed"]
    rest += ["how", "agree"]
    return both[[*order, *rest]]


def counts_each(cross: pd.DataFrame, study: str, metrics: Sequence[str]) -> pd.DataFrame:
    """counts() per further simulator of an against_each table: a column "simulator" after
    "study"."""
    parts = []
    for other in dict.fromkeys(cross["simulator"]):
        part = counts(cross[cross["simulator"] == other], study, metrics)
        part.insert(1, "simulator", other)
        parts.append(part)
    columns = ["study", "simulator", "metric", "cells", "agree", "differ", "undecided"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
