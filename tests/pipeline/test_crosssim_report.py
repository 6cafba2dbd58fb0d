"""The cross-simulator tables as written and shown: reasons, clipping, the view's order."""

from __future__ import annotations

import pandas as pd

from bufrepro.kit import crosssim as kcross
from bufrepro.pipeline import crosssim, report_crosssim

COLUMNS = ["buffer", "metric", "mean", "sd", "ci_low", "ci_high"]


def _summary(rows: list[tuple[int, str, float, float]], n: int) -> pd.DataFrame:
    df = pd.DataFrame([(*r, r[2] - 3 * r[3], r[2] + 3 * r[3]) for r in rows], columns=COLUMNS)
    return df.assign(n=n)


def _cross() -> pd.DataFrame:
    a = _summary([(5, "jain_index", 0.85, 0.01), (5, "link_utilisation", 0.9, 0.2)], 3)
    b = _summary(
        [(5, "jain_index", 0.58, 0.01), (5, "link_utilisation", 0.95, 0.2), (9, "x", 1, 0)], 3
    )
    made = kcross.against_each(
        ("ns2", a), [("ns3", b)], ["buffer"], ["jain_index", "link_utilisation", "x"]
    )
    return crosssim.clipped(crosssim.reasons(made, "hstcp", "ns2"), ["ns2", "ns3"])


def test_every_cell_that_does_not_agree_carries_a_reason() -> None:
    cross = _cross().set_index("metric")
    assert cross.loc["jain_index", "how"] == "differ"
    assert "limited slow start" in cross.loc["jain_index", "reason"]
    assert cross.loc["link_utilisation", "how"] == "undecided"
    assert cross.loc["link_utilisation", "reason"].startswith("the 95 % interval")


def test_intervals_beyond_a_physical_bound_are_clipped_and_marked() -> None:
    cross = _cross().set_index("metric")
    assert cross.loc["link_utilisation", "ns3_ci_high"] == 1.0
    assert "ns3 interval clipped at 1" in cross.loc["link_utilisation", "clipped"]


def test_the_view_lists_differences_first_and_one_simulators_cells_apart() -> None:
    notagree, extra = report_crosssim.view(_cross(), ["buffer"])
    assert list(notagree["how"]) == ["differ", "undecided"]
    assert list(extra["ran on"]) == ["ns3"]
