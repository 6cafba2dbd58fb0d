"""When a result is judged: one rule for a diff value's CI and for a readings verdict."""

from __future__ import annotations

# Fewer seeds than this: a mean's 95% CI (Student t, n - 1 degrees of freedom) is too wide to
# call a value inside or outside it, and a readings distance rests on means this noisy.
MIN_SEEDS = 5
# Fewer readings than this: the best of them is picked from too few to say no reading fits.
MIN_READINGS = 10
# Fewer held-out values than this: the validation median moves with any one value.
MIN_VALIDATION_VALUES = 10


def shortfalls(
    seeds: int, readings: int | None = None, validation_values: int | None = None
) -> list[str]:
    """What a result rests on too little of ([] when it can be judged)."""
    out = []
    if seeds < MIN_SEEDS:
        out.append(f"n < {MIN_SEEDS} seeds")
    if readings is not None and readings < MIN_READINGS:
        out.append(f"{readings} readings (< {MIN_READINGS})")
    if validation_values is not None and validation_values < MIN_VALIDATION_VALUES:
        noun = "value" if validation_values == 1 else "values"
        out.append(f"{validation_values} validation {noun} (< {MIN_VALIDATION_VALUES})")
    return out


def not_judged(reasons: list[str]) -> str:
    """The label of a result that rests on too little: 'not judged: n < 5 seeds, ...'."""
    return "not judged: " + ", ".join(reasons)
