"""Shapes that survive an unknown scale (trend, plateau onset, steps, ratios, peak) and verdicts."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bufrepro.kit.claims import Check, evidence, verdict

if TYPE_CHECKING:
    import pandas as pd

# The shapes along one swept axis, and what each compares (ours against the reference's):
#   trend        up / down / flat from the first to the last point (flat: within flat_frac)
#   steps        the same, step by step ("up,up,flat"): monotonicity
#   plateau_from the smallest x from which every value is within flat_frac of the last one
#   end_ratio    last / first value, agreeing within shape_frac on the log scale
#   step_ratio   each step's ratio, likewise (one row per step)
#   peak_at      the x of the largest value; low_at: of the smallest
ALONG_SHAPES = ("trend", "steps", "plateau_from", "end_ratio", "step_ratio", "peak_at", "low_at")
COLUMNS = ("scope", "group", "along", "metric", "shape", "ours", "paper", "agrees")


def trend(values: Sequence[float] | pd.Series, flat_frac: float) -> str:
    """up, down or flat from the first to the last value (flat: within flat_frac)."""
    vals = [float(v) for v in values]
    first, last = vals[0], vals[-1]
    change = (last - first) / abs(first) if first else (math.inf if last != first else 0.0)
    if abs(change) <= flat_frac:
        return "flat"
    return "up" if change > 0 else "down"


def steps(values: Sequence[float] | pd.Series, flat_frac: float) -> str:
    """Each step's trend, comma-separated."""
    vals = [float(v) for v in values]
    return ",".join(trend([a, b], flat_frac) for a, b in itertools.pairwise(vals))


def plateau_from(
    xs: Sequence[float] | pd.Series, values: Sequence[float] | pd.Series, flat_frac: float
) -> float:
    """The smallest x from which every value is within flat_frac of the last one."""
    xl, vl = [float(x) for x in xs], [float(v) for v in values]
    last = vl[-1]
    onset = xl[-1]
    for x, v in zip(reversed(xl), reversed(vl), strict=True):
        if last and abs(v - last) / abs(last) > flat_frac:
            break
        onset = x
    return onset


def ratio_agrees(ours: float, paper: float, shape_frac: float) -> bool:
    """Two ratios agree: within a factor (1 + shape_frac) of each other (both positive)."""
    if not (ours > 0 and paper > 0) or math.isinf(ours) or math.isinf(paper):
        return False
    return abs(math.log(ours / paper)) <= math.log(1 + shape_frac)


@dataclass(frozen=True)
class Series:
    """One curve of ours beside the reference's: where it is, and its points (x ascending)."""

    scope: str
    group: str
    along: str
    metric: str
    xs: tuple[float, ...]
    ours: tuple[float, ...]
    paper: tuple[float, ...]


def _fmt(x: float) -> str:
    return f"{x:g}"


def _ratio(a: float, b: float) -> float:
    return b / a if a else math.inf


def shape_rows(s: Series, kinds: Sequence[str], th: Mapping[str, float]) -> list[dict[str, Any]]:
    """The rows of the shapes table for one series: each shape of ours beside the reference's."""
    flat, frac = th["flat_frac"], th["shape_frac"]
    base = {"scope": s.scope, "group": s.group, "along": s.along, "metric": s.metric}
    out: list[dict[str, Any]] = []

    def add(shape: str, o: Any, p: Any, ok: bool, where: str = "") -> None:
        group = f"{s.group}, {where}" if where and s.group else (where or s.group)
        out.append(
            {
                **base,
                "group": group,
                "shape": shape,
                "ours": str(o),
                "paper": str(p),
                "agrees": bool(ok),
            }
        )

    if len(s.xs) < 2:
        return out
    for kind in kinds:
        if kind in ("trend", "steps"):
            fn = trend if kind == "trend" else steps
            o, p = fn(s.ours, flat), fn(s.paper, flat)
            add(kind, o, p, o == p)
        elif kind == "plateau_from":
            po, pp = plateau_from(s.xs, s.ours, flat), plateau_from(s.xs, s.paper, flat)
            add(kind, _fmt(po), _fmt(pp), po == pp)
        elif kind == "end_ratio":
            ro, rp = _ratio(s.ours[0], s.ours[-1]), _ratio(s.paper[0], s.paper[-1])
            where = f"{s.along} {_fmt(s.xs[0])}->{_fmt(s.xs[-1])}"
            add(kind, f"{ro:.4g}", f"{rp:.4g}", ratio_agrees(ro, rp, frac), where)
        elif kind == "step_ratio":
            for i in range(len(s.xs) - 1):
                ro, rp = _ratio(s.ours[i], s.ours[i + 1]), _ratio(s.paper[i], s.paper[i + 1])
                where = f"{s.along} {_fmt(s.xs[i])}->{_fmt(s.xs[i + 1])}"
                add(kind, f"{ro:.4g}", f"{rp:.4g}", ratio_agrees(ro, rp, frac), where)
        elif kind in ("peak_at", "low_at"):
            pick = max if kind == "peak_at" else min
            xo = s.xs[s.ours.index(pick(s.ours))]
            xp = s.xs[s.paper.index(pick(s.paper))]
            add(kind, _fmt(xo), _fmt(xp), xo == xp)
        else:
            raise ValueError(f"unknown shape {kind!r}; allowed: {', '.join(ALONG_SHAPES)}")
    return out


def series_of(
    both: pd.DataFrame,
    scope: str,
    by: Sequence[str],
    along: str,
    metric: str,
    ours_col: str,
    paper_col: str,
) -> list[Series]:
    """The series of `both` (ours and the reference merged per point) per group of `by`, along
    `along`, skipping points where either side has no value."""
    out: list[Series] = []
    sub = both.dropna(subset=[ours_col, paper_col])
    if sub.empty:
        return out
    groups = sub.groupby(list(by), sort=True, dropna=False) if by else [((), sub)]
    for key, g in groups:
        g = g.sort_values(along, kind="mergesort")
        vals = key if isinstance(key, tuple) else (key,)
        group = ", ".join(f"{k}={v}" for k, v in zip(by, vals, strict=True))
        out.append(
            Series(
                scope,
                group,
                along,
                metric,
                tuple(float(x) for x in g[along]),
                tuple(float(v) for v in g[ours_col]),
                tuple(float(v) for v in g[paper_col]),
            )
        )
    return out


def table(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The shapes table (COLUMNS) from shape rows, in a stable order."""
    import pandas as pd

    return pd.DataFrame(list(rows), columns=list(COLUMNS))


@dataclass(frozen=True)
class Reads:
    """Which rows of the shapes table judge a claim's shape: shapes, and the metrics and axes
    (`along`) they are taken of (empty: any)."""

    shapes: tuple[str, ...]
    metrics: tuple[str, ...] = ()
    along: tuple[str, ...] = ()


def judge(
    claims: pd.DataFrame,
    shapes: pd.DataFrame,
    reads: Mapping[str, Reads],
    holds_frac: float,
    scope_col: str = "scope",
    where: Callable[[Mapping[str, Any]], str] | None = None,
) -> pd.DataFrame:
    """The claims with shape_verdict and shape_evidence: whether our shapes agree with the
    reference's on what each claim is about (untestable where no shape reads it). `where`
    names a row's place in the evidence (default: its group, or its block columns)."""

    verdicts, texts = [], []
    for claim, scope in zip(claims["claim"], claims["scope"], strict=True):
        want = reads.get(str(claim), Reads(()))
        sel = shapes[shapes["shape"].isin(want.shapes) & (shapes[scope_col] == scope)]
        if want.metrics:
            sel = sel[sel["metric"].isin(want.metrics)]
        if want.along:
            sel = sel[sel["along"].isin(want.along)]
        checks = [
            Check(
                f"{r['metric']} {r['shape']} " + (where(r) if where else describe(r, scope_col)),
                bool(r["agrees"]),
                f"ours {r['ours']}, paper {r['paper']}",
            )
            for r in sel.to_dict("records")
        ]
        verdicts.append(verdict(checks, holds_frac))
        texts.append(evidence(checks))
    out: pd.DataFrame = claims.assign(shape_verdict=verdicts, shape_evidence=texts)
    return out


def describe(row: Mapping[str, Any], scope_col: str) -> str:
    """Where a shapes-table row is: its group (generic table) or its block columns."""
    import pandas as pd

    if "group" in row:
        return str(row["group"])
    skip = {scope_col, "metric", "shape", "ours", "paper", "agrees"}
    parts = []
    for k, v in row.items():
        if k in skip or (not isinstance(v, str) and pd.isna(v)):
            continue
        parts.append(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}")
    return " ".join(parts)
