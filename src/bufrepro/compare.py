"""Diff reproduced cells against the published tables, and check the papers' claims."""

from __future__ import annotations

import itertools
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

KEY_DECIMALS = 9
# Which queue each dumbbell seed paper used.
DUMBBELL_PAPERS: dict[str, str] = {
    "DropTail": "000_2aa0e755a3c7bea1.txt",
    "RED": "001_b65ae81af7f065fb.txt",
}


def _rounded(df: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    out = df.copy()
    for k in keys:
        if pd.api.types.is_float_dtype(out[k]):
            out[k] = out[k].round(KEY_DECIMALS)
    return out


def diff_published(
    published: pd.DataFrame,
    summary: pd.DataFrame,
    keys: Sequence[str],
    metric_map: Mapping[str, str],
) -> pd.DataFrame:
    """Each published value beside our mean, 95% CI, absolute and relative difference."""
    ident = [c for c in ("seed_file", "table", "block", "row", "side") if c in published]
    long = published.melt(
        id_vars=ident + list(keys),
        value_vars=list(metric_map),
        var_name="published_column",
        value_name="published",
    )
    long["metric"] = long["published_column"].map(metric_map)
    ours = summary[[*keys, "metric", "n", "mean", "ci_low", "ci_high"]]
    merged = _rounded(long, keys).merge(_rounded(ours, keys), on=[*keys, "metric"], how="left")
    merged["abs_diff"] = merged["mean"] - merged["published"]
    merged["rel_diff"] = merged["abs_diff"] / merged["published"].where(merged["published"] != 0)
    merged["in_ci"] = (merged["published"] >= merged["ci_low"]) & (
        merged["published"] <= merged["ci_high"]
    )
    merged["has_counterpart"] = merged["mean"].notna()
    merged = merged.rename(columns={"mean": "ours_mean", "n": "ours_n"})
    order = [
        *ident,
        *keys,
        "published_column",
        "metric",
        "published",
        "ours_mean",
        "ci_low",
        "ci_high",
        "ours_n",
        "abs_diff",
        "rel_diff",
        "in_ci",
        "has_counterpart",
    ]
    return (
        merged[order]
        .sort_values([*ident, "published_column"], kind="mergesort")
        .reset_index(drop=True)
    )


def coverage(diff: pd.DataFrame) -> dict[str, int]:
    """Counts: published rows, rows with a counterpart, values compared, values inside our CI."""
    ident = [c for c in ("seed_file", "table", "block", "row", "side") if c in diff]
    rows = diff.groupby(ident, sort=False)["has_counterpart"].all()
    return {
        "published_rows": int(rows.size),
        "rows_with_counterpart": int(rows.sum()),
        "values": len(diff),
        "values_compared": int(diff["has_counterpart"].sum()),
        "values_in_ci": int(diff["in_ci"].sum()),
    }


@dataclass(frozen=True)
class Check:
    """One comparison behind a claim: where, whether it agreed, and the numbers."""

    context: str
    ok: bool
    evidence: str


@dataclass(frozen=True)
class Claim:
    """A claim of a paper, turned into comparisons over a table of cell means."""

    claim_id: str
    papers: tuple[str, ...]
    statement: str
    definition: str
    check: Callable[[pd.DataFrame, Mapping[str, float]], list[Check]]


def _ctx(keys: Sequence[str], values: object) -> str:
    vals = values if isinstance(values, tuple) else (values,)
    return ", ".join(f"{k}={v}" for k, v in zip(keys, vals, strict=True))


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
                _ctx(["queue", "plr", "bw"], key),
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
                _ctx(["queue", "plr", "bw"], key),
                ok,
                f"largest change above buffer 15: delay {dev_d:.1%}, throughput {dev_t:.1%}",
            )
        )
    return out


def _monotone(
    along: str, metric: str, rising: bool, others: Sequence[str]
) -> Callable[[pd.DataFrame, Mapping[str, float]], list[Check]]:
    def check(cells: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in cells.groupby(list(others), sort=True):
            g = g.sort_values(along)
            vals = list(zip(g[along], g[metric], strict=True))
            for (a0, v0), (a1, v1) in itertools.pairwise(vals):
                ok = bool(v1 > v0) if rising else bool(v1 < v0)
                out.append(
                    Check(
                        f"{_ctx(others, key)}, {along} {a0}->{a1}",
                        ok,
                        f"{metric} {v0:.2f} -> {v1:.2f}",
                    )
                )
        return out

    return check


DUMBBELL_CLAIMS: tuple[Claim, ...] = (
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
        _monotone("plr", "throughput", False, ("queue", "bottleneck_mbps", "buffer")),
    ),
    Claim(
        "loss_raises_delay",
        ("DropTail",),
        "More packet loss raises the delay (paper 000, Experimental Results).",
        "Per (queue, bw, buffer) and each step up in plr: delay rises.",
        _monotone("plr", "delay", True, ("queue", "bottleneck_mbps", "buffer")),
    ),
    Claim(
        "loss_lowers_delay",
        ("RED",),
        "More packet loss lowers the delay (paper 001, Section 4).",
        "Per (queue, bw, buffer) and each step up in plr: delay falls.",
        _monotone("plr", "delay", False, ("queue", "bottleneck_mbps", "buffer")),
    ),
    Claim(
        "faster_link_more_throughput",
        ("DropTail", "RED"),
        "A faster bottleneck raises throughput.",
        "Per (queue, plr, buffer) and each step up in bottleneck bandwidth: throughput rises.",
        _monotone("bottleneck_mbps", "throughput", True, ("queue", "plr", "buffer")),
    ),
    Claim(
        "faster_link_less_delay",
        ("DropTail", "RED"),
        "A faster bottleneck lowers delay.",
        "Per (queue, plr, buffer) and each step up in bottleneck bandwidth: delay falls.",
        _monotone("bottleneck_mbps", "delay", False, ("queue", "plr", "buffer")),
    ),
)


def verdict(checks: Sequence[Check], holds_frac: float) -> str:
    """holds / partly / fails / untestable from the share of agreeing comparisons."""
    if not checks:
        return "untestable"
    share = sum(c.ok for c in checks) / len(checks)
    if share >= holds_frac:
        return "holds"
    return "partly" if share >= 0.5 else "fails"


def _evidence(checks: Sequence[Check]) -> str:
    if not checks:
        return "no comparison possible with the configured grid"
    bad = [c for c in checks if not c.ok]
    good = [c for c in checks if c.ok]
    text = f"{len(good)} of {len(checks)} comparisons agree"
    if bad:
        text += "; against: " + "; ".join(f"{c.context} ({c.evidence})" for c in bad[:3])
        if len(bad) > 3:
            text += f"; and {len(bad) - 3} more"
    elif good:
        text += f"; e.g. {good[0].context} ({good[0].evidence})"
    return text


def evaluate_claims(
    ours: pd.DataFrame,
    paper: pd.DataFrame,
    claims: Sequence[Claim],
    thresholds: Mapping[str, float],
) -> pd.DataFrame:
    """A verdict per claim and queue, on our means and on the paper's own table.

    Both frames have columns queue, plr, bottleneck_mbps, buffer, delay, throughput.
    """
    rows = []
    for claim in claims:
        for queue in claim.papers:
            ours_q = ours[ours["queue"] == queue]
            paper_q = paper[paper["queue"] == queue]
            ours_checks = claim.check(ours_q, thresholds)
            paper_checks = claim.check(paper_q, thresholds)
            rows.append(
                {
                    "claim": claim.claim_id,
                    "queue": queue,
                    "seed_file": DUMBBELL_PAPERS.get(queue, ""),
                    "statement": claim.statement,
                    "definition": claim.definition,
                    "verdict": verdict(ours_checks, thresholds["holds_frac"]),
                    "agree": sum(c.ok for c in ours_checks),
                    "comparisons": len(ours_checks),
                    "evidence": _evidence(ours_checks),
                    "paper_table_verdict": verdict(paper_checks, thresholds["holds_frac"]),
                    "paper_table_evidence": _evidence(paper_checks),
                }
            )
    return pd.DataFrame(rows)


def paper_cells(published: pd.DataFrame) -> pd.DataFrame:
    """The paper's table as cell means (existing and proposed rows of one cell averaged)."""
    keys = ["queue", "plr", "bottleneck_mbps", "buffer"]
    cells = published.groupby(keys, sort=True)[["tcp_delay_ms", "tcp_throughput_kbps"]].mean()
    return cells.reset_index().rename(
        columns={"tcp_delay_ms": "delay", "tcp_throughput_kbps": "throughput"}
    )


def format_diff(diff: pd.DataFrame) -> str:
    """The diff as an aligned plain-text table for the terminal."""
    cols = [
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
        "rel_diff",
        "in_ci",
    ]
    view = diff[[c for c in cols if c in diff]].copy()
    for c in ("published", "ours_mean", "ci_low", "ci_high"):
        view[c] = view[c].map(lambda v: "" if pd.isna(v) else f"{v:.2f}")
    view["rel_diff"] = view["rel_diff"].map(
        lambda v: "" if pd.isna(v) or math.isinf(v) else f"{v:+.0%}"
    )
    return view.to_string(index=False)


def write_comparison(
    study: str,
    block: Mapping[str, object],
    summary_csv: Path,
    published_csv: Path,
    diff_csv: Path,
    claims_csv: Path,
    coverage_json: Path,
) -> dict[str, int]:
    """Write the diff, the claims' verdicts and the coverage counts of one study."""
    from bufrepro.grid import GRID_KEYS
    from bufrepro.metrics import PUBLISHED_METRICS
    from bufrepro.stats import wide_means

    keys = list(GRID_KEYS[study])
    summary = pd.read_csv(summary_csv)
    published = pd.read_csv(published_csv)
    diff = diff_published(published, summary, keys, PUBLISHED_METRICS[study])
    diff.to_csv(diff_csv, index=False, float_format="%.6f")
    cov = coverage(diff)
    coverage_json.write_text(json.dumps(cov, indent=1) + "\n", encoding="utf-8")
    means = wide_means(summary, keys).rename(
        columns={"tcp_delay_ms_mean": "delay", "tcp_throughput_kbps": "throughput"}
    )
    thresholds = dict(block["claims"])  # type: ignore[call-overload]
    claims = evaluate_claims(means, paper_cells(published), DUMBBELL_CLAIMS, thresholds)
    claims.to_csv(claims_csv, index=False)
    return cov


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bufrepro.compare show DIFF.csv...`: print diffs, coverage and claims."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] != "show":
        print(
            "usage: python -m bufrepro.compare show results/STUDY/tables/diff.csv ...",
            file=sys.stderr,
        )
        return 2
    for path in map(Path, args[1:]):
        tables = path.parent
        print(f"== {tables.parent.name}: published rows beside our mean and 95% CI ==")
        print(format_diff(pd.read_csv(path)))
        cov = json.loads((tables / "coverage.json").read_text(encoding="utf-8"))
        print(
            f"\ncoverage: {cov['rows_with_counterpart']} of {cov['published_rows']} published "
            f"rows have a counterpart; {cov['values_in_ci']} of {cov['values_compared']} "
            "published values fall inside our 95% CI"
        )
        claims = pd.read_csv(tables / "claims.csv")
        print("\nclaims:")
        for row in claims.itertuples():
            print(
                f"  [{row.verdict:>10}] {row.queue:8} {row.statement}\n"
                f"               ours: {row.evidence}\n"
                f"               paper's own table: {row.paper_table_verdict}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
