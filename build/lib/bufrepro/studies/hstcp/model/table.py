"""The study's model table: the fixed point per configured scenario, queue and buffer fraction."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pandas as pd

from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.model.fixed_point import Scenario, solve_fixed_point
from bufrepro.studies.hstcp.model.queues import RedParams
from bufrepro.studies.hstcp.params import band_scenarios, bdp_pkts, buffer_pkts, rtts_ms

# How model.csv writes its floats; compare() uses the model as read back from that text.
FLOAT_FORMAT = "%.9g"


def model_scenario(block: Block, name: str) -> Scenario:
    """The model's Scenario of a configured scenario (SCENARIO_1/2 for the paper's s1/s2)."""
    sc = block["scenarios"][name]
    return Scenario(
        name=name,
        capacity_bps=sc["bottleneck_mbps"] * 1e6,
        packet_bytes=block["packet_bytes"],
        rtts_s=tuple(r / 1000 for r in rtts_ms(sc)),
        bdp_packets=bdp_pkts(sc, block["packet_bytes"]),
    )


def red_params(block: Block) -> RedParams:
    """The model's RED settings from the block's red section."""
    red = block["red"]
    return RedParams(
        max_p=red["max_p"],
        min_th_fraction=red["min_th_frac"],
        max_th_fraction=red["max_th_frac"],
        gentle=red["gentle"],
    )


def model_table(block: Block) -> pd.DataFrame:
    """The model's utilisation, loss and queueing delay per scenario, queue and buffer fraction.

    Fractions: the grid's, plus model.extra_fractions for smooth curves (on_grid says which).
    """
    grid = block["grid"]
    grid_fracs = sorted(set(grid["buffer_frac"]))
    fracs = sorted(set(grid_fracs) | set(block["model"]["extra_fractions"]))
    return model_rows(block, grid["scenario"], grid["queue"], fracs, grid_fracs)


def band_model(block: Block) -> pd.DataFrame:
    """The model at the readings band's scenarios, queue and buffer fractions."""
    band = block["band"]
    fracs = sorted(set(band["buffer_frac"]))
    return model_rows(block, band_scenarios(block), [band["queue"]], fracs, fracs)


def model_rows(
    block: Block,
    scenarios: Sequence[str],
    queues: Sequence[str],
    fracs: Sequence[float],
    grid_fracs: Sequence[float],
) -> pd.DataFrame:
    """The fixed point at every scenario x queue x fraction (on_grid: the fraction is in
    grid_fracs)."""
    m = block["model"]
    red = red_params(block)
    rows = []
    for name in scenarios:
        scenario = model_scenario(block, name)
        for queue in queues:
            for frac in fracs:
                k = buffer_pkts(frac, scenario.bdp_packets)
                res = solve_fixed_point(
                    scenario, k, "red" if queue == "RED" else "droptail", form=m["form"], red=red
                )
                rows.append(
                    {
                        "scenario": name,
                        "queue": queue,
                        "buffer_frac": frac,
                        "buffer_pkts": k,
                        "on_grid": frac in grid_fracs,
                        "utilisation": res.utilisation,
                        "loss_rate": res.loss_prob,
                        "queueing_delay_ms": res.queueing_delay_s * 1000,
                        "converged": res.converged,
                        "unique": res.unique,
                        "warning": res.warning or "",
                    }
                )
    return pd.DataFrame(rows)


def as_written(table: pd.DataFrame) -> pd.DataFrame:
    """The table as read back from its CSV text (floats to FLOAT_FORMAT), as the tables use it."""
    text = table.to_csv(index=False, float_format=FLOAT_FORMAT)
    return pd.read_csv(io.StringIO(text))
