"""Precision as the stopping rule: targets per metric, Akaroa2-style rounds, runs still needed."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from bufrepro.kit import prose

WORDS = Path(__file__).with_name("precision.yaml")

# The confidence of the interval whose half-width a target bounds: Akaroa2's default (Ewing,
# Pawlikowski & McNickle 1999) and the project's summary intervals (kit.stats.CONFIDENCE). A
# verdict is then decided once, at its own confidence (kit.verdicts), after the rounds end.
CONFIDENCE = 0.95
# A target's kinds: relative (half-width over |mean|: delays, throughputs), absolute (in the
# metric's units: utilisation), events (rates and counts: the exact Poisson interval of the
# events pooled over the runs, its half-width over the count).
KINDS = ("relative", "absolute", "events")
# The computed runs needed are rounded up; a product a rounding error above a whole number
# (n (h / t)^2 = 20.000000000004) is that whole number, not one more run.
SLACK = 1e-9
# A cell's state after a round: every target reached; another round asked; at the cap unreached.
REACHED, MORE, CAP = "reached", "more", "cap"

Cell = TypeVar("Cell", bound=Hashable)


def _clean(values: Sequence[float]) -> list[float]:
    """The values that are numbers (a run that could not measure the metric gives nan)."""
    return [float(v) for v in values if not math.isnan(v)]


def t_half_width(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """(mean, half-width) of the Student-t interval of the mean; half-width nan below 2 values."""
    from scipy import special  # lazily: planning imports this module, and must stay light

    clean = _clean(values)
    n = len(clean)
    if n < 2:
        return (clean[0] if clean else math.nan), math.nan
    if min(clean) == max(clean):  # exactly: the mean's rounding would make a spread of its own
        return clean[0], 0.0
    mean = sum(clean) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in clean) / (n - 1))
    return mean, float(special.stdtrit(n - 1, 0.5 + confidence / 2)) * sd / math.sqrt(n)


def poisson_interval(events: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The exact (Garwood 1936) interval of a Poisson mean given `events` observed: the chi-square
    quantiles chi2(a/2; 2k) / 2 and chi2(1 - a/2; 2k + 2) / 2 (the lower bound 0 when k is 0)."""
    from scipy.stats import chi2

    alpha = 1.0 - confidence
    k = round(events)
    low = float(chi2.ppf(alpha / 2, 2 * k)) / 2 if k > 0 else 0.0
    return low, float(chi2.ppf(1 - alpha / 2, 2 * k + 2)) / 2


def poisson_half_width(events: float, confidence: float = CONFIDENCE) -> float:
    """The exact Poisson interval's half-width over the count (inf with no event)."""
    k = round(events)
    if k <= 0:
        return math.inf
    low, high = poisson_interval(k, confidence)
    return (high - low) / 2 / k


@cache
def events_needed(target: float, confidence: float = CONFIDENCE) -> int:
    """The fewest pooled events whose exact Poisson interval's relative half-width is at most
    `target` (the half-width falls as the count grows: a doubling search, then bisection)."""
    high = 1
    while poisson_half_width(high, confidence) > target:
        high *= 2
    low = high // 2  # fails the target (or is 0)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if poisson_half_width(mid, confidence) <= target else (mid, high)
    return high


def more_runs(n: int, half: float, target: float) -> int:
    """The runs to add to a cell of n runs whose half-width is `half` to reach `target` at the
    observed spread: the half-width shrinks as 1 / sqrt(n), so n (half / target)^2 runs in all,
    rounded up, less the n done; at least 1 when not reached, 0 when reached. It leaves out that
    the t quantile falls with n too, so it errs high for a few runs (t at 5 runs is 1.4 x z)."""
    if half <= target:
        return 0
    if n < 1 or math.isnan(half) or math.isinf(half):
        return max(1, 2 - n)  # no spread yet: the runs that make an interval (2) first
    total = math.ceil(n * (half / target) ** 2 - SLACK)
    return max(1, total - n)


@dataclass(frozen=True)
class Target:
    """One metric's precision target: `kind` (KINDS) and `value`, the half-width it must reach
    at `confidence`: relative (of |mean|) and absolute over per-run values (t interval), or
    events, the relative half-width of the exact Poisson interval of the runs' events pooled
    (the per-run values are event counts); `reason` says why this value."""

    kind: str
    value: float
    reason: str = ""
    confidence: float = CONFIDENCE

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a precision target's kind is {self.kind!r}; allowed: {KINDS}")
        if not (self.value > 0 and math.isfinite(self.value)):
            raise ValueError(f"a precision target's value is {self.value}; allowed: a number > 0")
        if not 0 < self.confidence < 1:
            raise ValueError(f"a target's confidence is {self.confidence}; allowed: in (0, 1)")

    def half_width(self, values: Sequence[float]) -> float:
        """The achieved half-width, in the target's terms: nan below 2 runs (t kinds); relative
        to |mean| (0 when every run gave the same value, inf for a spread about a mean of 0);
        for events, of the pooled count (inf with no event)."""
        if self.kind == "events":
            clean = _clean(values)
            return poisson_half_width(sum(clean), self.confidence) if clean else math.nan
        return self.of_interval(*t_half_width(values, self.confidence))

    def of_interval(self, mean: float, half: float) -> float:
        """An interval's half-width in the target's terms (relative: over |mean|, 0 when the
        half-width is 0, inf about a mean of 0): for a t interval over runs or one long run's
        batch-means interval (kit.batchmeans) alike."""
        if self.kind == "absolute" or math.isnan(half):
            return half
        if half == 0:
            return 0.0
        return half / abs(mean) if mean else math.inf

    def reached(self, values: Sequence[float]) -> bool:
        """Whether the runs' half-width is at most the target (never with no interval)."""
        return self.half_width(values) <= self.value

    def more_runs(self, values: Sequence[float]) -> int:
        """The runs to add to reach the target at the observed spread (more_runs; for events,
        the pooled count needed, events_needed, at the observed events a run)."""
        n = len(_clean(values))
        half = self.half_width(values)
        if self.kind != "events" or half <= self.value or n == 0:
            return more_runs(n, half, self.value)
        pooled = round(sum(_clean(values)))
        if pooled <= 0:
            return more_runs(n, math.inf, self.value)
        total = math.ceil(n * events_needed(self.value, self.confidence) / pooled - SLACK)
        return max(1, total - n)


@dataclass(frozen=True)
class Rounds:
    """Runs are added in rounds: `first` seeds for a cell with none, then `size` a round, to at
    most `cap` seeds a cell (Akaroa2's checkpoints, with replications as the observations).
    Stopping on the spread biases the final interval a little (a cell stops sooner when its sd
    reads low): on normal cells a 95 % interval covered 94.8 % after a first round of 10 and
    rounds of 5, 90.7 % after 3 and 2 (tests/kit/test_precision.py): keep the first round >= 10."""

    size: int
    cap: int
    first: int = 0  # 0: the first round is `size` seeds

    def __post_init__(self) -> None:
        if self.size < 1 or self.first < 0 or self.cap < max(self.first, self.size, 2):
            raise ValueError(
                f"rounds of size {self.size}, first {self.first}, cap {self.cap}; allowed: "
                "size >= 1, first >= 0, and a cap of at least 2 and of either round"
            )

    @property
    def opening(self) -> int:
        """The seeds of a cell's first round."""
        return self.first or self.size

    def boundary(self, done: int) -> int:
        """The seeds a cell has at the end of the round that `done` runs are in (done itself at
        a round's end, the cap at most): the only points where the rule judges a cell."""
        if done >= self.cap:
            return done
        if done <= self.opening:
            return self.opening
        return min(
            self.cap, self.opening + math.ceil((done - self.opening) / self.size) * self.size
        )


@dataclass(frozen=True)
class Step(Generic[Cell]):
    """One cell after a round: its runs `done` (seeds 1..done), `state` (REACHED, MORE or CAP),
    the seeds of its next round (empty unless MORE), and per metric the achieved half-width,
    the target's value and the runs it would still need at the observed spread."""

    cell: Cell
    done: int
    state: str
    seeds: tuple[int, ...]
    half_widths: Mapping[str, float]
    targets: Mapping[str, float]
    needed: Mapping[str, int]


def runs_done(values: Mapping[str, Sequence[float]]) -> int:
    """A cell's runs so far: every metric holds one value per seed 1..n (nan where a run could
    not measure it), so all lists have one length."""
    lengths = {len(v) for v in values.values()}
    if len(lengths) > 1:
        raise ValueError(f"a cell's metrics hold {sorted(lengths)} values; allowed: one length")
    return lengths.pop() if lengths else 0


def step(
    cell: Cell, values: Mapping[str, Sequence[float]], targets: Mapping[str, Target], rounds: Rounds
) -> Step[Cell]:
    """One cell's decision from its runs so far. It reads the half-widths only: never a verdict,
    a claim's tolerance or which side of it the mean lies, so that the verdict decided once when
    the rounds end keeps its error rates (a rule that stopped when a verdict looked decided would
    not). Every targeted metric must be in `values`; a metric without a target is not looked at."""
    missing = sorted(set(targets) - set(values))
    if missing:
        raise ValueError(f"cell {cell!r} has no values of {missing}; allowed: the targets' metrics")
    done = runs_done({m: values[m] for m in targets})
    halves = {m: t.half_width(values[m]) if done else math.nan for m, t in targets.items()}
    needed = {m: t.more_runs(values[m]) for m, t in targets.items()}
    values_of = {m: t.value for m, t in targets.items()}
    end = rounds.boundary(done)
    if done < end:  # a round not finished (or none run): finish it before judging
        return Step(cell, done, MORE, tuple(range(done + 1, end + 1)), halves, values_of, needed)
    if all(t.reached(values[m]) for m, t in targets.items()):
        return Step(cell, done, REACHED, (), halves, values_of, needed)
    if done >= rounds.cap:
        return Step(cell, done, CAP, (), halves, values_of, needed)
    seeds = tuple(range(done + 1, min(done + rounds.size, rounds.cap) + 1))
    return Step(cell, done, MORE, seeds, halves, values_of, needed)


def plan_round(
    cells: Mapping[Cell, Mapping[str, Sequence[float]]],
    targets: Mapping[str, Target],
    rounds: Rounds,
) -> dict[Cell, Step[Cell]]:
    """Every cell's decision (step); the next round runs the MORE cells' seeds. Seeds come in
    the fixed order 1, 2, 3, ... and each cell is decided from its own runs alone, so a rerun of
    the same config asks the same runs in the same rounds on any core count. A cell is judged
    only at a round's end (Rounds.boundary): a round cut short is finished first, so a resumed
    run stops where an uninterrupted one would."""
    return {cell: step(cell, values, targets, rounds) for cell, values in cells.items()}


def target(metric: str, block: Mapping[str, Any]) -> Target:
    """A metric's target from its config block ({kind, value, reason, confidence}: a reason is
    required, confidence optional); a bad block fails naming the metric, in one sentence."""
    allowed = [f.name for f in fields(Target)]
    unknown = sorted(set(block) - set(allowed))
    if unknown or not str(block.get("reason", "")).strip():
        raise ValueError(
            f"precision target {metric} has keys {sorted(block)}; allowed: {allowed}, with a "
            "non-empty reason"
        )
    try:
        return Target(**block)
    except (TypeError, ValueError) as err:
        raise ValueError(f"precision target {metric}: {err}") from None


def rounds(block: Mapping[str, Any]) -> Rounds:
    """The rounds from their config block ({size, cap, first}); a bad block fails saying what is
    allowed, in one sentence."""
    allowed = [f.name for f in fields(Rounds)]
    if set(block) - set(allowed) or not all(isinstance(v, int) for v in block.values()):
        raise ValueError(f"precision rounds {dict(block)}; allowed: whole numbers {allowed}")
    try:
        return Rounds(**block)
    except TypeError as err:
        raise ValueError(f"precision rounds {dict(block)}; allowed: {allowed} ({err})") from None


def describe(found: Step[Any]) -> str:
    """A cell's state in precision.yaml's words: the runs, and the metrics short of a target
    with their half-widths and the runs each would still need at the observed spread."""
    short = [m for m, h in found.half_widths.items() if not h <= found.targets[m]]
    metrics = "; ".join(
        prose.fill(
            prose.load(WORDS)["metric"],
            metric=m,
            half=found.half_widths[m],
            target=found.targets[m],
            more=found.needed[m],
        )
        for m in short
    )
    return prose.fill(
        prose.load(WORDS)["state"][found.state],
        done=found.done,
        add=len(found.seeds),
        metrics=metrics,
    )
