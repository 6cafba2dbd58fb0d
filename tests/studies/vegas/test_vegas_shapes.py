"""Vegas's shapes beside Tables II-IV: along packet size and RTT, spacing against standard."""

from __future__ import annotations

import pandas as pd
from vegas_tables import paper_cells, published, runs_of, summary_of

from bufrepro.pipeline import configuration
from bufrepro.studies.vegas import STUDY
from bufrepro.studies.vegas.claims import claims_for
from bufrepro.studies.vegas.shapes import READS
from bufrepro.studies.vegas.tables import METRICS


def _compare(scale: float, bend: bool = False) -> dict[str, pd.DataFrame]:
    block = configuration.load()["vegas"]
    cells = paper_cells(block)
    for metric in METRICS.values():
        cells[metric] = cells[metric] * scale
    if bend:  # our delay falls with the packet size where the paper's rises
        packet = cells["setup"] == "packet"
        cells.loc[packet, "tcp_delay_ms_mean"] = 1000.0 / cells.loc[packet, "packet_bytes"]
    tables = {"runs": runs_of(cells), "summary": summary_of(cells), "published": published()}
    return STUDY.compare(block, tables)


def test_cells_of_the_paper_scaled_agree_on_every_shape() -> None:
    out = _compare(2.0)
    table, claims = out["shapes"], out["claims"]
    assert table["agrees"].all()
    assert set(table["along"]) == {"packet_bytes", "rtt_ms", "spacing"}
    assert set(table["scope"]) == {"diffed readings", "all readings"}
    read = claims[claims["claim"].isin(READS)]
    assert read["shape_verdict"].eq("holds").all()
    # Scaled x2, every delay and throughput leaves its CI (+-1 around ours); shapes do not care.
    diff = out["diff"]
    big = diff[diff["published_column"].isin(["network_delay", "network_throughput"])]
    assert len(big) == 44 and not big["in_ci"].astype(bool).any()
    x = claims[claims["claim"] == "x_0835"]
    assert x["shape_verdict"].eq("untestable").all()  # X is a value, not a shape


def test_a_changed_shape_fails_its_claim() -> None:
    claims = _compare(1.0, bend=True)["claims"].set_index(["claim", "scope"])
    row = claims.loc[("delay_rises_with_packet_size", "diffed readings")]
    assert row["shape_verdict"] == "fails"
    assert "ours down, paper up" in row["shape_evidence"]
    # The RTT setup is untouched.
    assert claims.loc[("delay_rises_with_rtt", "diffed readings"), "shape_verdict"] == "holds"
    assert set(READS) <= {c.claim_id for c in claims_for(configuration.load()["vegas"])}
