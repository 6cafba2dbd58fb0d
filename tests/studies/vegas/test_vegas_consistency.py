"""What Tables II-IV of the Vegas paper imply on their own, on the real published table."""

from __future__ import annotations

import pandas as pd

from bufrepro.pipeline import configuration
from bufrepro.studies.vegas import STUDY
from bufrepro.studies.vegas.consistency import consistency
from conftest import REPO, merged


def _out() -> pd.DataFrame:
    block = configuration.validate(merged({"studies": ["vegas"]}))["vegas"]
    published = pd.read_csv(REPO / "published" / "vegas.csv")
    return consistency(block, {"published": published}).set_index(["table", "check"])


def test_ratio_column_is_the_quotient_and_delay_is_not_an_rtt() -> None:
    out = _out()
    ratio = out.xs("ratio_is_delay_over_throughput", level="check")
    assert list(ratio.index) == ["Table II", "Table III", "Table IV"] and ratio["passes"].all()
    assert not out.loc[("Table IV", "delay_ge_rtt"), "passes"]
    assert out.loc[("Table IV", "delay_ge_half_rtt"), "passes"]


def test_table_iv_throughput_alternates_with_rtt() -> None:
    row = _out().loc[("Table IV", "throughput_falls_with_rtt")]
    assert not row["passes"] and row["value"] >= 3
    assert "50->60" in row["implication"]


def test_consistency_is_a_shown_table() -> None:
    assert "consistency" in STUDY.tables and "consistency" in STUDY.shown_tables()
    assert (REPO / "report" / "captions" / "vegas" / "consistency.rst").is_file()
