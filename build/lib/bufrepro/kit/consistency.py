"""What a published table implies on its own: bounds, identical rows, monotonicity, per block."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

COLUMNS = ("study", "table", "block", "check", "value", "expected", "passes", "implication")
# The block label of a check over a whole table (or over every row).
ALL = "all"


@dataclass(frozen=True)
class Measured:
    """One check's outcome on one group of rows: the value seen, the value expected, whether
    the expectation holds, and named numbers the implication text may quote."""

    value: float
    expected: float
    passes: bool
    detail: Mapping[str, Any] = field(default_factory=dict)


Measure = Callable[[pd.DataFrame], Measured | None]


@dataclass(frozen=True)
class Check:
    """A check run on each group of a published table (grouped by `scope`; () = every row).

    `if_passes` and `if_fails` say what the outcome implies about the unstated setup; they are
    format strings over value, expected and the measure's detail. A measure returns None where
    it does not apply (too few rows, no values).
    """

    name: str
    measure: Measure
    if_passes: str
    if_fails: str
    scope: tuple[str, ...] = ()


def _label(key: Mapping[str, Any], cols: Sequence[str], group: pd.DataFrame) -> str:
    """The group's values of cols (a column not grouped on counts when it holds one value):
    text as it is, numbers as name=value."""
    parts = []
    for c in cols:
        v = key.get(c)
        if v is None and c in group and group[c].nunique(dropna=False) == 1:
            v = group[c].iloc[0]
        if v is None or str(v) in ("", "nan"):
            continue
        parts.append(str(v) if isinstance(v, str) else f"{c}={v:g}")
    return " ".join(parts)


def _first_label(key: Mapping[str, Any], cols: Sequence[str], group: pd.DataFrame) -> str:
    """The label of the first of cols that gives one (block_cols are alternatives)."""
    return next((label for c in cols if (label := _label(key, [c], group))), "")


def _level(v: Any) -> str:
    return str(v) if isinstance(v, str) else f"{v:g}"


def run_checks(
    study: str,
    published: pd.DataFrame,
    checks: Sequence[Check],
    table_cols: Sequence[str],
    block_cols: Sequence[str] = (),
) -> pd.DataFrame:
    """One row per check and group: study, table, block, check, value, expected, passes,
    implication. table names the group by its values of table_cols, block by the first of
    block_cols that has one (block "all" for a check over more than one block)."""
    rows: list[dict[str, Any]] = []
    for check in checks:
        scope = list(check.scope)
        groups = published.groupby(scope, sort=True, dropna=False) if scope else [((), published)]
        for values, group in groups:
            key = dict(zip(scope, values if isinstance(values, tuple) else (values,), strict=True))
            got = check.measure(group)
            if got is None:
                continue
            text = check.if_passes if got.passes else check.if_fails
            rows.append(
                {
                    "study": study,
                    "table": _label(key, table_cols, group) or ALL,
                    "block": _first_label(key, block_cols, group) or ALL,
                    "check": check.name,
                    "value": got.value,
                    "expected": got.expected,
                    "passes": got.passes,
                    "implication": text.format(
                        value=got.value, expected=got.expected, **dict(got.detail)
                    ),
                }
            )
    return pd.DataFrame(rows, columns=list(COLUMNS))


# -- measures ----------------------------------------------------------------------------------
RowValue = Callable[[pd.DataFrame], "pd.Series[float]"]


Detail = Callable[[pd.Series], dict[str, Any]]


def _bounded(
    value: RowValue, bound: RowValue, detail: Detail | None, sign: float, by_value: bool
) -> Measure:
    """value <= bound (sign 1) or value >= bound (sign -1) on every row; the row shown is the
    one of largest sign * (value - bound), or with by_value of largest sign * value."""

    def measure(df: pd.DataFrame) -> Measured | None:
        rows = pd.DataFrame({"value": value(df), "bound": bound(df)}, index=df.index).dropna()
        if rows.empty:
            return None
        values = rows["value"].to_numpy(dtype=float)
        bounds = rows["bound"].to_numpy(dtype=float)
        gap = sign * (values if by_value else values - bounds)
        worst = int(gap.argmax())
        return Measured(
            float(values[worst]),
            float(bounds[worst]),
            bool((sign * (values - bounds) <= 0).all()),
            detail(df.loc[rows.index[worst]]) if detail else {},
        )

    return measure


def at_most(
    value: RowValue, bound: RowValue, detail: Detail | None = None, by_value: bool = False
) -> Measure:
    """Every row's value is at most its bound; the row shown is the worst (largest value -
    bound), or with by_value the one of largest value."""
    return _bounded(value, bound, detail, 1.0, by_value)


def at_least(value: RowValue, bound: RowValue, detail: Detail | None = None) -> Measure:
    """Every row's value is at least its bound; the worst row (smallest value - bound) is shown."""
    return _bounded(value, bound, detail, -1.0, False)


def identical_rows(along: str, cols: Sequence[str]) -> Measure:
    """Rows at different values of `along` with every one of `cols` equal: value = how many
    such pairs (expected 0); detail "pairs" lists them, e.g. "30=50"."""

    def measure(df: pd.DataFrame) -> Measured | None:
        rows = df.dropna(subset=list(cols)).drop_duplicates(subset=[along, *cols])
        if len(rows) < 2:
            return None
        pairs = []
        for _, same in rows.groupby(list(cols), sort=False):
            levels = sorted(same[along].unique())
            pairs += [f"{_level(a)}={_level(b)}" for a, b in itertools.pairwise(levels)]
        return Measured(float(len(pairs)), 0.0, not pairs, {"pairs": ", ".join(pairs) or "none"})

    return measure


def monotone(along: str, col: str, increasing: bool = True) -> Measure:
    """The mean of `col` at each value of `along` moves one way: value = how many adjacent
    steps go the other way (expected 0); detail "steps" lists them."""

    def measure(df: pd.DataFrame) -> Measured | None:
        means = df.dropna(subset=[col]).groupby(along, sort=True)[col].mean()
        if len(means) < 2:
            return None
        sign = 1.0 if increasing else -1.0
        levels = list(means.index)
        bad = [
            f"{_level(a)}->{_level(b)}"
            for a, b in itertools.pairwise(levels)
            if sign * (means[b] - means[a]) < 0
        ]
        return Measured(float(len(bad)), 0.0, not bad, {"steps": ", ".join(bad) or "none"})

    return measure


def spread(value: RowValue, by: str, limit: float) -> Measure:
    """The largest over the smallest of the per-`by` medians of `value`: at most `limit`."""

    def measure(df: pd.DataFrame) -> Measured | None:
        per = pd.Series(value(df), index=df.index).groupby(df[by]).median().dropna()
        per = per[per > 0]
        if len(per) < 2:
            return None
        ratio = float(per.max() / per.min())
        detail = {"low": float(per.min()), "high": float(per.max()), "groups": len(per)}
        return Measured(ratio, limit, ratio <= limit, detail)

    return measure
