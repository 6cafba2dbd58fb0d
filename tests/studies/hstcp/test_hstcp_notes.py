"""The hstcp notes (notes.py): the model's reach, both BDP axes, the band, agreement."""

from __future__ import annotations

import pandas as pd
import pytest
from hstcp_tables import GOOD, model_for, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp.claims import evaluate
from bufrepro.studies.hstcp.notes import PROBE_PKTS, gap_note, model_util, notes


def test_the_model_depends_on_packets_not_on_the_bdp() -> None:
    block = defaults()["hstcp"]
    s1 = [model_util(block, "s1", k) for k in PROBE_PKTS]
    s2 = [model_util(block, "s2", k) for k in PROBE_PKTS]
    # BDPs 12500 and 6250 packets, yet the same buffer in packets gives the same utilisation.
    assert s1 == pytest.approx(s2, abs=0.02)
    assert s1 == pytest.approx([0.17, 0.93, 0.99], abs=0.01)


def test_notes_name_both_axes_the_band_and_the_split_agreement() -> None:
    block = defaults()["hstcp"]
    s = summary_table(GOOD)
    claims = evaluate(block, s, model_for(s), None)
    band = pd.DataFrame(
        {
            "scenario": ["s2", "s2"],
            "pacing": [False, True],
            "access_ratio": [10.0, 10.0],
            "buffer_frac": [0.1, 0.1],
            "seeds": [1, 1],
            "link_utilisation": [0.4, 0.88],
            "loss_rate": [1e-3, 1e-4],
            "buffer_pkts": [625, 625],
            "buffer_frac_flows_bdp": [625 / 28125] * 2,
            "model_utilisation": [0.99, 0.99],
            "band_low": [0.4, 0.4],
            "band_high": [0.88, 0.88],
            "a_priori": [True, False],
        }
    )
    out = notes(block, band, claims)
    sections = set(out["section"])
    assert {"what the model can say", "two BDP axes", "model vs simulation"} <= sections
    axis = out[out["topic"] == "s2: fraction of which BDP"]["ours"].iloc[0]
    assert "0.022 of the flows' BDP" in axis and "0.222" in axis
    row = out[out["section"].str.startswith("readings band")].iloc[0]
    assert "a priori (pacing False, access x10) 0.400" in row["ours"]
    closed = (0.88 - 0.4) / (0.99 - 0.4)
    assert row["note"] == f"pacing closes {closed:.0%} of the model-simulation gap"


def test_notes_without_a_band_still_say_what_the_model_can() -> None:
    block = defaults()["hstcp"]
    s = summary_table(GOOD)
    out = notes(block, None, evaluate(block, s, model_for(s), None))
    assert not out["section"].str.startswith("readings band").any()
    model_rows = out[out["section"] == "what the model can say"]
    assert len(model_rows) == len(block["grid"]["scenario"])


def test_gap_note_only_speaks_of_a_gap_there_is() -> None:
    assert gap_note(0.2, 0.8, 1.0, 0.05) == "pacing closes 75% of the model-simulation gap"
    assert "beyond 100%" in gap_note(0.2, 0.9, 0.4, 0.05)
    assert gap_note(0.9, 0.8, 0.92, 0.05).startswith("no gap to close")
