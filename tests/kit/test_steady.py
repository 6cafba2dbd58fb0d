"""kit.steady on hand-made runs: settled, unsettled and short-window cells, and their scopes."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import steady


def runs() -> pd.DataFrame:
    rows = []
    for queue, frac, settled, epochs in (
        ("DropTail", 0.1, (1, 1), (12, 15)),
        ("DropTail", 0.2, (1, 0), (20, 20)),
        ("RED", 0.1, (1, 1), (3, 30)),
        ("RED", 0.2, (1, 1), (11, 10)),
    ):
        for seed, (ok, ep) in enumerate(zip(settled, epochs, strict=True), 1):
            rows.append(
                {
                    "queue": queue,
                    "buffer_frac": frac,
                    "seed": seed,
                    "window_start_s": 10.0 + seed,
                    "transient_end_s": 9.0 + 2 * seed,
                    "steady_state": ok,
                    "loss_epochs_min": ep,
                }
            )
    return pd.DataFrame(rows)


def test_cells_say_what_their_runs_show() -> None:
    t = steady.cells(runs(), ("queue", "buffer_frac"), min_epochs=10)
    words = dict(zip(zip(t["queue"], t["buffer_frac"], strict=True), t["steady"], strict=True))
    assert words[("DropTail", 0.1)] == "at steady state"
    assert words[("DropTail", 0.2)].startswith("not at steady state: 1 of 2 runs")
    assert words[("RED", 0.1)].startswith("short window: the fewest loss epochs a flow had")
    assert words[("RED", 0.2)] == "at steady state"  # 10 epochs is enough
    row = t.iloc[0]
    assert (row["runs"], row["settled_runs"], row["loss_epochs_min"]) == (2, 2, 12)
    assert (row["window_start_s_mean"], row["window_start_s_max"]) == (11.5, 12.0)
    assert row["transient_end_s_max"] == 13.0


def test_a_scope_names_its_flagged_cells() -> None:
    t = steady.cells(runs(), ("queue", "buffer_frac"), min_epochs=10)
    words = steady.by_scope(t, "queue", ("buffer_frac",))
    assert words["DropTail"].startswith("1 of 2 cells flagged (0.2)")
    assert words["RED"].startswith("1 of 2 cells flagged (0.1)")
    clean = steady.cells(runs()[runs()["buffer_frac"] == 0.2], ("queue", "buffer_frac"), 0)
    assert steady.by_scope(clean, "queue", ("buffer_frac",))["RED"] == "every cell at steady state"


def test_runs_without_windows_give_an_empty_table() -> None:
    t = steady.cells(runs().drop(columns=["steady_state"]), ("queue",), 10)
    assert t.empty
    assert list(t.columns) == ["queue", *steady.COLUMNS]
