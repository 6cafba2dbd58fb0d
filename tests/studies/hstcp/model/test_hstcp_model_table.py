"""The study's model table: configured scenarios are the paper's, one fixed point per cell."""

from __future__ import annotations

import pandas as pd
import pytest

from bufrepro.pipeline import configuration
from bufrepro.studies.hstcp.model import fixed_point as fp
from bufrepro.studies.hstcp.model.table import FLOAT_FORMAT, as_written, model_scenario, model_table
from conftest import merged


@pytest.mark.parametrize(("name", "ref"), [("s1", fp.SCENARIO_1), ("s2", fp.SCENARIO_2)])
def test_configured_scenarios_are_the_models(name: str, ref: fp.Scenario) -> None:
    sc = model_scenario(configuration.validate(merged({}))["hstcp"], name)
    assert sc.capacity_bps == ref.capacity_bps and sc.bdp_packets == ref.bdp_packets
    assert sc.packet_bytes == ref.packet_bytes
    assert sc.rtts_s == pytest.approx(ref.rtts_s, abs=1e-12)


def test_one_fixed_point_per_scenario_queue_and_fraction() -> None:
    block = configuration.validate(
        merged(
            {
                "hstcp": {
                    "grid": {"scenario": ["s2"], "buffer_frac": [0.1, 1.0]},
                    "model": {"extra_fractions": [0.5]},
                }
            }
        )
    )["hstcp"]
    table = model_table(block)
    assert list(zip(table["queue"], table["buffer_frac"], strict=True)) == [
        (q, f) for q in ("DropTail", "RED") for f in (0.1, 0.5, 1.0)
    ]
    assert list(table["on_grid"]) == [True, False, True] * 2
    assert list(table["buffer_pkts"]) == [625, 3125, 6250] * 2
    assert table["converged"].all() and (table["warning"] == "").all()
    assert (table["utilisation"].diff().fillna(0)[table["queue"] == "DropTail"] >= 0).all()
    written = as_written(table)
    assert written.to_csv(index=False, float_format=FLOAT_FORMAT) == table.to_csv(
        index=False, float_format=FLOAT_FORMAT
    )
    assert isinstance(written, pd.DataFrame) and written["utilisation"].dtype == float
