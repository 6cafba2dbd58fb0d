"""The default reproduction judges every study: each compared grid runs at least MIN_SEEDS seeds."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bufrepro.pipeline import configuration
from bufrepro.pipeline.evidence import MIN_SEEDS

# Seed lists of the default config whose runs feed no diff value and no claim, with why.
# Every other `seeds` key of a study block is compared (grid, side runs such as hstcp's
# two-flow runs, which feed the fairness claim) and must hold MIN_SEEDS seeds.
# The readings spaces (config/readings/<S>.yaml) are not study blocks: their verdict is a median
# error over the cells, not a value judged inside a CI, and five seeds would multiply their cost.
NOT_COMPARED = {
    "hstcp.band.seeds": "the pacing x access-ratio band feeds only the notes (no diff metric)",
}


def seed_lists(node: Any, path: str) -> Iterator[tuple[str, list[int]]]:
    """Every (dotted key, list) of a config block whose key is `seeds`, however deep."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            where = f"{path}.{key}"
            if key == "seeds" and isinstance(value, list):
                yield where, value
            else:
                yield from seed_lists(value, where)


def test_every_compared_default_grid_runs_min_seeds() -> None:
    cfg = configuration.load()
    assert not cfg["profile"], "the default reproduction has no profile"
    found = {key: seeds for name in cfg["studies"] for key, seeds in seed_lists(cfg[name], name)}
    assert {
        "dumbbell.seeds",
        "hstcp.seeds",
        "hstcp.twoflow.seeds",
        "ramya.seeds",
        "vegas.seeds",
    } <= set(found)
    short = {
        key: seeds
        for key, seeds in found.items()
        if key not in NOT_COMPARED and len(set(seeds)) < MIN_SEEDS
    }
    assert not short, f"compared with fewer than MIN_SEEDS = {MIN_SEEDS} seeds: {short}"
    assert set(NOT_COMPARED) <= set(found), "NOT_COMPARED names a key the config no longer has"


def test_quick_profile_stays_below_min_seeds() -> None:
    # The quick profile is a smoke run: small, and its summary says "not judged".
    cfg = configuration.load(profile="quick")
    assert all(len(set(cfg[name]["seeds"])) < MIN_SEEDS for name in cfg["studies"])
