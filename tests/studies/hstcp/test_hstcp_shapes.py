"""Hstcp's shapes: the simulated utilisation curve against the model's, on both BDP axes."""

from __future__ import annotations

import pandas as pd
from hstcp_tables import GOOD, model_for, summary_table
from hstcp_tiny import defaults

from bufrepro.studies.hstcp.claims import evaluate
from bufrepro.studies.hstcp.shapes import BELOW, FLOWS, FROM, FULL, READS, shape_verdicts, shapes

# A curve with the model's values from 0.1 up and a collapse below it (line-rate trains).
COLLAPSE = {**GOOD, 0.01: 0.18, 0.02: 0.3, 0.05: 0.55}


def _judged(sim: dict[float, float], model: dict[float, float]) -> pd.DataFrame:
    block = defaults()["hstcp"]
    summary = summary_table(sim)
    table = shapes(block, summary, model_for(summary_table(model)))
    claims = evaluate(block, summary, model_for(summary_table(model)), None)
    return shape_verdicts(claims, table, block["claims"]["holds_frac"]).set_index(
        ["claim", "scope"]
    )


def test_the_model_against_itself_agrees_on_every_axis() -> None:
    block = defaults()["hstcp"]
    summary = summary_table(GOOD)
    table = shapes(block, summary, model_for(summary))
    assert table["agrees"].all()
    assert set(table["along"]) == {FULL, FLOWS, BELOW, FROM}
    assert set(table["scope"]) == {"DropTail"}
    assert table["group"].str.startswith("scenario=s1").all()
    # 0.975 at 0.2 is 2.01 % below 0.995 at 1.0 (flat_frac 0.02): the plateau starts at 0.5,
    # which the flows' BDP axis moves by s1's axis ratio (0.83).
    onsets = table[table["shape"] == "plateau_from"].set_index("along")["ours"]
    assert onsets[FULL] == "0.5" and 0.40 < float(onsets[FLOWS]) < 0.43


def test_a_collapse_below_a_tenth_fails_the_shape_there_only() -> None:
    judged = _judged(COLLAPSE, GOOD)
    assert judged.loc[("model_sim_agree_from_10", "DropTail"), "shape_verdict"] == "holds"
    below = judged.loc[("model_sim_agree_below_10", "DropTail")]
    assert below["shape_verdict"] == "partly"  # the trend agrees, the end ratio (x3 vs x1.4) not
    assert "end_ratio" in below["shape_evidence"]
    assert judged.loc[("util_90_at_10", "DropTail"), "shape_verdict"] == "holds"
    # The fairness claim has no model curve, and RED has no cell here.
    assert judged.loc[("buffer_reduces_rtt_unfairness", "DropTail"), "shape_verdict"] == (
        "untestable"
    )
    assert judged.loc[("model_sim_agree_from_10", "RED"), "shape_verdict"] == "untestable"
    assert set(READS) <= {c for c, _ in judged.index}
