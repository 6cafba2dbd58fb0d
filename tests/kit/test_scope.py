"""A batch's scope: one printed form (its folder under results/), one reading of it."""

from __future__ import annotations

import pytest

from bufrepro.kit.scope import Scope, of_run, parse

SCOPES = [
    Scope("hstcp", "ns2"),
    Scope("hstcp", "ns3", "further"),
    Scope("hstcp", "ns2", "side", "twoflow"),
    Scope("mylink", "ns3", "experiment"),
]


def test_each_scope_prints_its_folder_and_reads_back() -> None:
    assert [s.text for s in SCOPES] == ["hstcp", "hstcp/ns3", "hstcp/twoflow", "experiments/mylink"]
    assert all(parse(str(s), SCOPES) == s for s in SCOPES)
    assert [s.experiment for s in SCOPES] == [False, False, False, True]


def test_an_unknown_scope_is_named_with_the_known_ones() -> None:
    with pytest.raises(
        ValueError, match=r"scope 'hstcp/ns4' is none of this config's: .*hstcp/ns3"
    ):
        parse("hstcp/ns4", SCOPES)


def test_a_run_folder_belongs_to_the_longest_scope_holding_it() -> None:
    assert of_run("hstcp/runs/s1/DropTail/frac0.1/seed1", SCOPES) == SCOPES[0]
    assert of_run("hstcp/readings/runs/abc/s1/seed1", SCOPES) == SCOPES[0]
    assert of_run("hstcp/ns3/runs/s1/seed1", SCOPES) == SCOPES[1]
    assert of_run("hstcp/twoflow/under/seed1", SCOPES) == SCOPES[2]
    assert of_run("experiments/mylink/runs/b10/seed1", SCOPES) == SCOPES[3]
    with pytest.raises(ValueError, match="vegas/runs/seed1 is in no scope"):
        of_run("vegas/runs/seed1", SCOPES)
