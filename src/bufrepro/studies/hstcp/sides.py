"""hstcp's side runs (two-flow, band, twin): the grid's ns-2 declaration at other run points."""

# Each kind of side run is a declaration (a subclass of the grid's Ns2, or Ns2 itself over
# another block) with its own run points, in a folder of its own beside runs/
# (results/hstcp/<kind>/...): a kit.declaration.Side, which Hstcp.sides() lists and the one
# batch rule runs as scope hstcp/<kind>. Its specs come from the one spec factory, so their
# parser variables, kept files and options are the declaration's, as a grid run's are:
# hstcp.awk checks every stream's header against buffer, flows and sample_s.

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro.backends.fingerprint import fingerprint
from bufrepro.kit.declaration import Block, Side
from bufrepro.kit.grid import RunPoint
from bufrepro.studies.hstcp import params
from bufrepro.studies.hstcp.declarations import NS2, Ns2

# The two-flow cases of Figs. 5-6: under- and over-buffered.
CASES = ("under", "over")
# The simulator every side run is made on (the paper's).
SIMULATOR = "ns2"


def twoflow_bdp(block: Block) -> int:
    """BDP of the two-flow path at the flows' mean RTT (under/over fractions are of it)."""
    tf = block["twoflow"]
    mean_rtt = sum(tf["rtts_ms"]) / len(tf["rtts_ms"])
    bits: float = tf["bottleneck_mbps"] * 1e6 * mean_rtt / 1000
    pkt: int = block["packet_bytes"]
    return max(1, round(bits / (8 * pkt)))


def twoflow_params(block: Block, case: str, seed: int) -> dict[str, Any]:
    """Template variables of one two-flow run (Figs. 5-6): case 'under' or 'over'."""
    if case not in CASES:
        raise ValueError(f"two-flow case {case!r}; known: {CASES}")
    tf = block["twoflow"]
    bdp = twoflow_bdp(block)
    frac = tf[f"{case}_frac"]
    buf = params.buffer_pkts(frac, bdp)
    sc = {"bottleneck_delay_ms": tf["bottleneck_delay_ms"]}
    delay = tf["bottleneck_delay_ms"]
    return {
        **params.common(block),
        **params.link(block, tf["bottleneck_mbps"], delay, "DropTail", buf, bdp),
        "seed": seed,
        "scenario": f"twoflow-{case}",
        "buffer_frac": frac,
        "flows": params.flows(block, sc, tf["rtts_ms"]),
        "warmup_s": tf["warmup_s"],
        "duration_s": tf["duration_s"],
        # The stream's header (the parser checks it): the run is identified by case and seed.
        "fingerprint": fingerprint(
            RunPoint("hstcp", (("twoflow", case), ("buffer_frac", frac)), seed), tf["duration_s"]
        ),
        "timeseries_s": tf["timeseries_s"],
    }


class TwoFlow(Ns2):
    """The two-flow runs: one path of two RTTs, under- or over-buffered, keeping the series of
    the flows' windows and the queue."""

    kept_files = (params.TIMESERIES,)

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Template variables of one two-flow run (point: its case and seed)."""
        return twoflow_params(setup, str(point.get("case")), point.seed)


def reading_block(block: Block, pacing: bool, ratio: float) -> dict[str, Any]:
    """The study block with one reading's tcp.pacing and topology.access_ratio."""
    return {
        **block,
        "tcp": {**block["tcp"], "pacing": pacing},
        "topology": {**block["topology"], "access_ratio": ratio},
    }


class Band(Ns2):
    """The readings band's runs: a grid run with the point's tcp.pacing and access ratio."""

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Template variables of one band run."""
        pacing, ratio = bool(point.get("pacing")), float(point.get("access_ratio"))
        return params.params(reading_block(setup, pacing, ratio), point)


def twin_block(block: Block) -> dict[str, Any]:
    """The study's block with hstcp.twin's grid values and seeds (the claims' own fractions
    planned as in the grid)."""
    twin = dict(block.get("twin") or {})
    seeds = list(twin.pop("seeds", block["seeds"]))
    return {**block, "grid": {**block["grid"], **twin}, "seeds": seeds}


def twoflow_points(block: Block) -> list[RunPoint]:
    """Every two-flow run: each case x twoflow.seeds (results/hstcp/twoflow/<case>/seed<N>)."""
    seeds = block["twoflow"]["seeds"]
    return [
        RunPoint("hstcp", (("case", c),), s, ("",), folder="twoflow") for c in CASES for s in seeds
    ]


def band_points(block: Block) -> list[RunPoint]:
    """Every run of the band: scenario x pacing x access ratio x buffer fraction x seed."""
    band = block["band"]
    labels = ("", "", "frac", "pacing", "access")
    return [
        RunPoint(
            "hstcp",
            (
                ("scenario", scen),
                ("queue", band["queue"]),
                ("buffer_frac", frac),
                ("pacing", pacing),
                ("access_ratio", ratio),
            ),
            seed,
            labels,
            folder="band",
        )
        for scen in params.band_scenarios(block)
        for pacing in band["pacing"]
        for ratio in band["access_ratio"]
        for frac in band["buffer_frac"]
        for seed in band["seeds"]
    ]


def twin_points(block: Block) -> list[RunPoint]:
    """Every twin run: the grid's points over hstcp.twin (none when it is empty)."""
    if not block.get("twin"):
        return []
    from bufrepro.studies.hstcp import STUDY

    return [dataclasses.replace(p, folder="twin") for p in STUDY.runs(twin_block(block))]


SIDES: Mapping[str, Side] = {
    "twoflow": Side(SIMULATOR, TwoFlow(), dict, twoflow_points),
    "band": Side(SIMULATOR, Band(), dict, band_points),
    "twin": Side(SIMULATOR, NS2, twin_block, twin_points),
}


def run_dirs(block: Block, kind: str) -> list[Path]:
    """The folders of every run of one kind (their tables read them once the batches ran)."""
    return [Path(p.run_dir) for p in SIDES[kind].points(block)]
