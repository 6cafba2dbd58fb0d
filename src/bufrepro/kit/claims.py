"""Papers' claims as checks over tables of cell means, and their verdicts."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from bufrepro.kit import prose, verdicts
from bufrepro.kit.samples import Sample


@dataclass(frozen=True)
class Check:
    """One comparison behind a claim: where, whether it agreed, and the numbers; `outcome` is
    its word in kit.verdicts' vocabulary (a test's), else holds or fails from `ok`."""

    context: str
    ok: bool
    evidence: str
    outcome: str = ""

    @property
    def result(self) -> str:
        if self.outcome:
            return self.outcome
        return verdicts.word("claim", "holds" if self.ok else "fails")


@dataclass(frozen=True)
class Claim:
    """A claim of a paper, turned into comparisons over a table of cell means."""

    claim_id: str
    scopes: tuple[str, ...]
    statement: str
    definition: str
    check: Callable[[pd.DataFrame, Mapping[str, float]], list[Check]]
    # The test on per-seed runs (kit.verdicts): used on our runs when they are given, and then
    # on the paper's table too, its values as points (points()): one rule for both sides.
    test: Callable[[pd.DataFrame, Mapping[str, float]], list[Check]] | None = None


# How a side of a claim was judged (claims.csv's rule and paper_table_rule).
RULE_TEST = "claim test"
RULE_CHECK = "sign of the means"
RULE_NONE = ""
# What the paper's column of claims.csv reads (paper_side): the paper's own table of values.
PAPER_SIDE = "paper's table"


def rule(checks: Sequence[Check]) -> str:
    """How a side was judged: by the claim test when every comparison is a test's (it carries
    its outcome), else by the sign of the means; "" when it has no comparison (untestable: no
    rule was applied, so it parts from no other)."""
    if not checks:
        return RULE_NONE
    return RULE_TEST if all(c.outcome for c in checks) else RULE_CHECK


def points(table: pd.DataFrame) -> pd.DataFrame:
    """A table of one value per cell as runs of the claim test: each row one published point
    (seed verdicts.PUBLISHED), which the test judges as an interval of no width."""
    return table.assign(seed=verdicts.PUBLISHED)


def context(keys: Sequence[str], values: object) -> str:
    vals = values if isinstance(values, tuple) else (values,)
    return ", ".join(f"{k}={v}" for k, v in zip(keys, vals, strict=True))


def monotone(
    along: str, metric: str, rising: bool, others: Sequence[str]
) -> Callable[[pd.DataFrame, Mapping[str, float]], list[Check]]:
    """Comparisons: `metric` rises (or falls) with each step of `along`, within `others`."""

    def check(cells: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in cells.groupby(list(others), sort=True):
            g = g.sort_values(along)
            vals = list(zip(g[along], g[metric], strict=True))
            for (a0, v0), (a1, v1) in itertools.pairwise(vals):
                ok = bool(v1 > v0) if rising else bool(v1 < v0)
                out.append(
                    Check(
                        f"{context(others, key)}, {along} {a0}->{a1}",
                        ok,
                        f"{metric} {v0:.2f} -> {v1:.2f}",
                    )
                )
        return out

    return check


def monotone_test(
    along: str,
    metric: str,
    rising: bool,
    others: Sequence[str],
    tolerance: Callable[[pd.DataFrame, Mapping[str, float]], float],
) -> Callable[[pd.DataFrame, Mapping[str, float]], list[Check]]:
    """monotone() as a test on per-seed runs (kit.verdicts): each step of `along` is the
    per-seed difference of `metric`, paired by seed, against tolerance(step's runs, th)."""

    def test(runs: pd.DataFrame, th: Mapping[str, float]) -> list[Check]:
        out = []
        for key, g in runs.groupby(list(others), sort=True):
            steps = sorted(g[along].unique())
            for a0, a1 in itertools.pairwise(steps):
                r0, r1 = g[g[along] == a0], g[g[along] == a1]
                v0 = dict(zip(r0["seed"], r0[metric].astype(float), strict=True))
                v1 = dict(zip(r1["seed"], r1[metric].astype(float), strict=True))
                iv = verdicts.difference(v0, v1)
                tol = tolerance(pd.concat([r0, r1]), th)
                outcome = verdicts.claim_outcome(iv, tol, 1 if rising else -1)
                out.append(
                    Check(
                        f"{context(others, key)}, {along} {a0}->{a1}",
                        outcome == verdicts.word("claim", "holds"),
                        verdicts.evidence(
                            metric, r0[metric].mean(), r1[metric].mean(), iv, tol, outcome
                        ),
                        outcome,
                    )
                )
        return out

    return test


def sample_check(
    where: str,
    what: str,
    a: Sample,
    b: Sample,
    tol: float,
    direction: int,
    bound: bool,
) -> Check:
    """b against a, each a cell's Sample, as a test: the 90 % interval of b - a (paired by seed
    on the seeds both ran, Welch where they share too few; a point for two published values:
    verdicts.difference) against tol, a claim that b differs in `direction`
    (verdicts.claim_outcome) or, `bound`, that b reaches a (verdicts.bound_outcome)."""
    iv = verdicts.difference(a.values, b.values, verdicts.CLAIM_CONFIDENCE)
    judge = verdicts.bound_outcome if bound else verdicts.claim_outcome
    outcome = judge(iv, tol, direction)
    text = verdicts.evidence(what, a.mean, b.mean, iv, tol, outcome)
    if outcome == verdicts.word("claim", "undecided") and not bound:
        seeds = verdicts.seeds_to_decide(iv, tol, direction)
        text += prose.fill(verdicts.words()["undecided_seeds"], seeds=seeds)
    return Check(where, outcome == verdicts.word("claim", "holds"), text, outcome)


def all_of(where: str, checks: Sequence[Check]) -> Check:
    """One check from the tests that together make it (a claim that needs all of them): fails
    when one fails; holds when all hold; not supported when one is; else not judged when one
    is; no meaningful difference when every other one is that; not supported when one is that
    beside undecided ones (that part rules the claimed effect out, so the whole is ruled out);
    undecided otherwise. Its evidence lists theirs."""
    got = [c.result for c in checks]
    keys = ("holds", "fails", "not_supported", "not_judged", "no_difference")
    w = {k: verdicts.word("claim", k) for k in keys}
    rest = [o for o in got if o != w["holds"]]
    if w["fails"] in got:
        outcome = w["fails"]
    elif not rest:
        outcome = w["holds"]
    elif w["not_supported"] in rest:
        outcome = w["not_supported"]
    elif w["not_judged"] in rest:
        outcome = w["not_judged"]
    elif all(o == w["no_difference"] for o in rest):
        outcome = w["no_difference"]
    elif w["no_difference"] in rest:
        outcome = w["not_supported"]
    else:
        outcome = verdicts.word("claim", "undecided")
    text = "; ".join(f"{c.context.removeprefix(where).lstrip(', ')} {c.evidence}" for c in checks)
    return Check(where, outcome == w["holds"], text.strip(), outcome)


def verdict(checks: Sequence[Check], holds_frac: float) -> str:
    """One verdict in kit.verdicts' vocabulary over the comparisons' outcomes."""
    return verdicts.combined([c.result for c in checks], holds_frac)


def evidence(checks: Sequence[Check]) -> str:
    if not checks:
        return "no comparison possible with the configured grid"
    bad = [c for c in checks if not c.ok]
    good = [c for c in checks if c.ok]
    text = f"{len(good)} of {len(checks)} comparisons hold"
    if bad:
        text += "; against: " + "; ".join(
            f"{c.context} ({c.evidence or c.result})" for c in bad[:3]
        )
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
    scope_key: str | None = None,
    seed_files: Mapping[str, str] | None = None,
    runs: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """A verdict per claim (and scope), on our cell means and on the paper's own table.

    A claim's `scopes` are values of `scope_key` (e.g. the queue, one per paper) that it is
    checked within; `seed_files` names the paper of each scope. Given our per-seed `runs`, a
    claim with a `test` is judged by it on them (kit.verdicts) and on the paper's table as
    points, else both sides by `check` on the means: one rule for both, named in `rule` and
    `paper_table_rule`.
    """
    rows = []
    for claim in claims:
        for scope in claim.scopes:
            ours_s, paper_s, runs_s = ours, paper, runs
            if scope_key is not None:
                ours_s = ours[ours[scope_key] == scope]
                paper_s = paper[paper[scope_key] == scope]
                if runs is not None:
                    runs_s = runs[runs[scope_key] == scope]
            if claim.test is not None and runs_s is not None:
                ours_checks = claim.test(runs_s, thresholds)
                paper_checks = claim.test(points(paper_s), thresholds)
            else:
                ours_checks = claim.check(ours_s, thresholds)
                paper_checks = claim.check(paper_s, thresholds)
            rows.append(
                {
                    "claim": claim.claim_id,
                    "scope": scope,
                    "seed_file": (seed_files or {}).get(scope, ""),
                    "statement": claim.statement,
                    "definition": claim.definition,
                    "verdict": verdict(ours_checks, thresholds["holds_frac"]),
                    "agree": sum(c.ok for c in ours_checks),
                    "comparisons": len(ours_checks),
                    "evidence": evidence(ours_checks),
                    "paper_table_verdict": verdict(paper_checks, thresholds["holds_frac"]),
                    "paper_table_evidence": evidence(paper_checks),
                    "paper_side": PAPER_SIDE,
                    "rule": rule(ours_checks),
                    "paper_table_rule": rule(paper_checks),
                }
            )
    return pd.DataFrame(rows)
