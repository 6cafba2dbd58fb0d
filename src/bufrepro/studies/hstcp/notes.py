"""The hstcp study's notes (their words in notes.yaml): the model's reach, BDP axes, the band."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pandas as pd

from bufrepro.kit import prose
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

COLUMNS = list(prose.NOTE_FIELDS)
NOTES = Path(__file__).with_name("notes.yaml")
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
    texts = prose.load(NOTES)["model"]
    pkt = block["packet_bytes"]
    lo = min(block["grid"]["buffer_frac"])
    rows = []
    for name in block["grid"]["scenario"]:
        sc = block["scenarios"][name]
        bdp = bdp_pkts(sc, pkt)
        probe = ", ".join(
            prose.fill(texts["probe"], util=model_util(block, name, k), k=k) for k in PROBE_PKTS
        )
        k_lo, k_10 = buffer_pkts(lo, bdp), buffer_pkts(SPLIT, bdp)
        u_lo, u_10 = model_util(block, name, k_lo), model_util(block, name, k_10)
        rows.append(
            prose.note(
                texts,
                name=name,
                bdp=bdp,
                probe=probe,
                u_lo=u_lo,
                lo=lo,
                k_lo=k_lo,
                u_10=u_10,
                split=SPLIT,
                k_10=k_10,
                fall=u_10 - u_lo,
            )
        )
    return rows


def axis_notes(block: Block) -> list[dict[str, str]]:
    """Both BDP axes per scenario: of the R1-R2 link (the paper's) and of the flows."""
    texts = prose.load(NOTES)["axis"]
    pkt = block["packet_bytes"]
    rows = []
    for name in sorted({*block["grid"]["scenario"], *band_scenarios(block)}):
        sc = block["scenarios"][name]
        bdp, flows = bdp_pkts(sc, pkt), flows_bdp_pkts(sc, pkt)
        rows.append(
            prose.note(
                texts,
                name=name,
                bdp=bdp,
                mbps=sc["bottleneck_mbps"],
                delay_ms=sc["bottleneck_delay_ms"],
                mean_rtt=sum(rtts_ms(sc)) / len(rtts_ms(sc)),
                flows=flows,
                ratio=bdp / flows,
                split=SPLIT,
                split_flows=SPLIT * bdp / flows,
            )
        )
    return rows


def _cell(band: pd.DataFrame, pacing: bool, ratio: float) -> pd.DataFrame:
    return band[(band["pacing"] == pacing) & ((band["access_ratio"] - ratio).abs() < 1e-9)]


def band_notes(block: Block, band: pd.DataFrame | None) -> list[dict[str, str]]:
    """Per scenario and buffer fraction of the readings band: a priori, paced, band, model."""
    if band is None or band.empty:
        return []
    texts = prose.load(NOTES)["band"]
    pacing0, ratio0 = bool(block["tcp"]["pacing"]), float(block["topology"]["access_ratio"])
    rows = []
    for key, g in band.groupby(["scenario", "buffer_frac"], sort=True):
        scen, frac = str(key[0]), float(cast(float, key[1]))
        a = _cell(g, pacing0, ratio0)
        other = _cell(g, not pacing0, ratio0)
        u0 = float(a["link_utilisation"].iloc[0]) if not a.empty else math.nan
        u1 = float(other["link_utilisation"].iloc[0]) if not other.empty else math.nan
        um = float(g["model_utilisation"].iloc[0])
        row = prose.note(
            texts,
            scenario=scen,
            frac=frac,
            pkts=int(g["buffer_pkts"].iloc[0]),
            frac_flows=float(g["buffer_frac_flows_bdp"].iloc[0]),
            pacing0=pacing0,
            ratio0=ratio0,
            u0=u0,
            pacing1=not pacing0,
            u1=u1,
            readings=len(g),
            low=float(g["band_low"].iloc[0]),
            high=float(g["band_high"].iloc[0]),
            um=um,
        )
        rows.append({**row, "note": gap_note(u0, u1, um, block["claims"]["agree_tol"])})
    return rows


def gap_note(u0: float, u1: float, um: float, tol: float) -> str:
    """How much of the model-simulation gap (model minus a priori) switching pacing closes."""
    if math.isnan(u0) or math.isnan(u1) or math.isnan(um):
        return ""
    texts = prose.load(NOTES)["gap"]
    if um - u0 <= tol:
        return prose.fill(texts["none"], um=um)
    share = (u1 - u0) / (um - u0)
    return prose.fill(texts["share"], share=share, over=texts["over"] if share > 1 else "")


def agree_notes(claims: pd.DataFrame) -> list[dict[str, str]]:
    """Model-simulation agreement judged separately below and from 0.1 BDP."""
    texts = prose.load(NOTES)["agree"]
    rows = []
    for claim_id, where in (
        ("model_sim_agree_below_10", texts["below"]),
        ("model_sim_agree_from_10", texts["from"]),
    ):
        for _, c in claims[claims["claim"] == claim_id].iterrows():
            rows.append(
                prose.note(
                    texts,
                    where=prose.fill(where, split=SPLIT),
                    scope=c["scope"],
                    verdict=c["verdict"],
                    agree=c["agree"],
                    comparisons=c["comparisons"],
                )
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
