"""What Barman's printed parameters and claims imply on their own."""

from __future__ import annotations

import pandas as pd
import pytest

from bufrepro.studies.hstcp import STUDY
from bufrepro.studies.hstcp.consistency import consistency, hs_loss
from conftest import REPO


def _out() -> pd.DataFrame:
    tables = {
        "published": pd.read_csv(REPO / "published" / "hstcp_claims.csv"),
        "hstcp_params": pd.read_csv(REPO / "published" / "hstcp_params.csv"),
    }
    return consistency({}, tables).set_index("check")


def test_response_function() -> None:
    # RFC 3649: w = 0.12 p^-0.835; 38 segments at p = 1e-3 (to two digits).
    assert hs_loss(38) == pytest.approx(1.0e-3, rel=0.02)


def test_printed_parameters_and_claims() -> None:
    out = _out()
    assert out.loc["response_function_low", "passes"]
    assert out.loc["response_function_high", "passes"]
    assert out.loc["dt_1g_bdp_is_capacity_x_2_link_delay", "passes"]
    assert out.loc["dt_1g_buffer_over_bdp_at_largest_rtt", "passes"]
    assert not out.loc["dt_2g5_buffer_over_bdp_at_largest_rtt", "passes"]
    assert out.loc["utilization_le_1", "passes"]
    assert set(out["table"]) == {"hstcp_params", "hstcp_claims"}


def test_without_the_parameters_only_the_claims_are_checked() -> None:
    claims = pd.read_csv(REPO / "published" / "hstcp_claims.csv")
    out = consistency({}, {"published": claims})
    assert set(out["check"]) == {"utilization_le_1", "utilization_grows_with_buffer"}


def test_consistency_is_a_shown_table() -> None:
    assert "consistency" in STUDY.tables and "consistency" in STUDY.shown_tables()
    assert (REPO / "report" / "captions" / "hstcp" / "consistency.rst").is_file()
