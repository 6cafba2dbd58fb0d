"""The hstcp study's notes: what the model can say, the two BDP axes, the readings band."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import pandas as pd

from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.model.fixed_point import solve_fixed_point
from bufrepro.studies.hstcp.model.table import model_scenario
from bufrepro.studies.hstcp.params import (
    band_scenarios,
    bdp_pkts,
    buffer_pkts,
    flows_bdp_pkts,
    rtts_ms,
)

COLUMNS = ["section", "topic", "paper", "ours", "note"]
# Buffers (packets) at which the notes evaluate the model in every scenario: 5, 125 and 625
# packets are 0.04%, 1% and 5% of s1's BDP (12500) and 0.08%, 2% and 10% of s2's (6250).
PROBE_PKTS = (5, 125, 625)
SPLIT = 0.1


def model_util(block: Block, name: str, k: int) -> float:
    """The model's DropTail utilisation of one configured scenario at a buffer of k packets."""
    res = solve_fixed_point(model_scenario(block, name), k, "droptail", form=block["model"]["form"])
    return float(res.utilisation)


def model_notes(block: Block) -> list[dict[str, str]]:
    """The fixed-point model depends on the buffer in packets, almost regardless of the BDP."""
    pkt = block["packet_bytes"]
    lo = min(block["grid"]["buffer_frac"])
    rows = []
    for name in block["grid"]["scenario"]:
        sc = block["scenarios"][name]
        bdp = bdp_pkts(sc, pkt)
        probe = ", ".join(f"{model_util(block, name, k):.2f} at {k}" for k in PROBE_PKTS)
        k_lo, k_10 = buffer_pkts(lo, bdp), buffer_pkts(SPLIT, bdp)
        u_lo, u_10 = model_util(block, name, k_lo), model_util(block, name, k_10)
        rows.append(
            {
                "section": "what the model can say",
                "topic": f"{name}: model utilisation vs buffer in packets",
                "paper": "utilisation 'drops drastically' below 10% of the BDP (abstract, V); "
                "the model and simulation 'agree'",
                "ours": f"BDP {bdp} packets; model (DropTail) {probe} packets; "
                f"{u_lo:.3f} at {lo:g} BDP ({k_lo} packets) vs {u_10:.3f} at {SPLIT:g} BDP "
                f"({k_10} packets): a fall of {u_10 - u_lo:.3f}",
                "note": "the fixed point depends on the buffer in packets, almost regardless of "
                "the BDP: it cannot by itself produce a drastic drop below 10% of these BDPs",
            }
        )
    return rows


def axis_notes(block: Block) -> list[dict[str, str]]:
    """Both BDP axes per scenario: of the R1-R2 link (the paper's) and of the flows."""
    pkt = block["packet_bytes"]
    rows = []
    for name in sorted({*block["grid"]["scenario"], *band_scenarios(block)}):
        sc = block["scenarios"][name]
        bdp, flows = bdp_pkts(sc, pkt), flows_bdp_pkts(sc, pkt)
        mean_rtt = sum(rtts_ms(sc)) / len(rtts_ms(sc))
        rows.append(
            {
                "section": "two BDP axes",
                "topic": f"{name}: fraction of which BDP",
                "paper": f"buffer as a fraction of {bdp} packets ({sc['bottleneck_mbps']:g} Mb/s "
                f"x 2 x {sc['bottleneck_delay_ms']:g} ms, the R1-R2 link alone)",
                "ours": f"the flows' BDP at their mean RTT ({mean_rtt:g} ms) is {flows:.0f} "
                f"packets: the paper's fraction x {bdp / flows:.3f}; its {SPLIT:g} BDP is "
                f"{SPLIT * bdp / flows:.3f} of the flows' BDP",
                "note": "claims, diff and model_vs_sim give both axes (buffer_frac_flows_bdp; "
                "claims *_flows_bdp)",
            }
        )
    return rows


def _cell(band: pd.DataFrame, pacing: bool, ratio: float) -> pd.DataFrame:
    return band[(band["pacing"] == pacing) & ((band["access_ratio"] - ratio).abs() < 1e-9)]


def band_notes(block: Block, band: pd.DataFrame | None) -> list[dict[str, str]]:
    """Per scenario and buffer fraction of the readings band: a priori, paced, band, model."""
    if band is None or band.empty:
        return []
    pacing0, ratio0 = bool(block["tcp"]["pacing"]), float(block["topology"]["access_ratio"])
    rows = []
    for key, g in band.groupby(["scenario", "buffer_frac"], sort=True):
        scen, frac = str(key[0]), float(cast(float, key[1]))
        a = _cell(g, pacing0, ratio0)
        other = _cell(g, not pacing0, ratio0)
        u0 = float(a["link_utilisation"].iloc[0]) if not a.empty else math.nan
        u1 = float(other["link_utilisation"].iloc[0]) if not other.empty else math.nan
        um = float(g["model_utilisation"].iloc[0])
        readings = len(g)
        rows.append(
            {
                "section": "readings band (pacing x access ratio)",
                "topic": f"{scen}, DropTail, buffer {frac:g} BDP "
                f"({int(g['buffer_pkts'].iloc[0])} packets, "
                f"{float(g['buffer_frac_flows_bdp'].iloc[0]):.3f} of the flows' BDP)",
                "paper": "not stated: pacing and access-link speed",
                "ours": f"a priori (pacing {pacing0}, access x{ratio0:g}) {u0:.3f}; pacing "
                f"{not pacing0} {u1:.3f}; band over {readings} readings "
                f"{float(g['band_low'].iloc[0]):.3f}-{float(g['band_high'].iloc[0]):.3f}; "
                f"model {um:.3f}",
                "note": gap_note(u0, u1, um, block["claims"]["agree_tol"]),
            }
        )
    return rows


def gap_note(u0: float, u1: float, um: float, tol: float) -> str:
    """How much of the model-simulation gap (model minus a priori) switching pacing closes."""
    if math.isnan(u0) or math.isnan(u1) or math.isnan(um):
        return ""
    if um - u0 <= tol:
        return f"no gap to close: the model ({um:.3f}) is within agree_tol or below the a priori"
    share = (u1 - u0) / (um - u0)
    over = " (beyond 100%: the paced runs exceed the model)" if share > 1 else ""
    return f"pacing closes {share:.0%} of the model-simulation gap{over}"


def agree_notes(claims: pd.DataFrame) -> list[dict[str, str]]:
    """Model-simulation agreement judged separately below and from 0.1 BDP."""
    rows = []
    for claim_id, where in (
        ("model_sim_agree_below_10", f"below {SPLIT:g} BDP"),
        ("model_sim_agree_from_10", f"from {SPLIT:g} BDP"),
    ):
        for _, c in claims[claims["claim"] == claim_id].iterrows():
            rows.append(
                {
                    "section": "model vs simulation",
                    "topic": f"agreement {where}, {c['scope']}",
                    "paper": "'quite close' (III.A), 'close agreement' (IV.A)",
                    "ours": f"{c['verdict']}: {c['agree']} of {c['comparisons']} within agree_tol",
                    "note": "the whole range's verdict hides where they part",
                }
            )
    return rows


def notes(block: Block, band: pd.DataFrame | None, claims: pd.DataFrame) -> pd.DataFrame:
    """The notes table: the model's reach, both BDP axes, the readings band, agreement."""
    rows: Sequence[dict[str, Any]] = [
        *model_notes(block),
        *axis_notes(block),
        *band_notes(block, band),
        *agree_notes(claims),
    ]
    return pd.DataFrame(list(rows), columns=COLUMNS)
