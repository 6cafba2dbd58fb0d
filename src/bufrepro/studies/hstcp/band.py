"""The readings band: pacing on/off x access-to-bottleneck speed ratio at small buffers."""

# python -m bufrepro.studies.hstcp.band --config results/hstcp/config.yaml \
#     --runs T/band_runs.csv --band T/band.csv
# reads every reading of hstcp.band (scenario x pacing x access ratio x buffer fraction x seed,
# results/hstcp/band/<...>/seed<N>/, declared in sides.py, made by the batch rule as scope
# hstcp/band) and writes one row per run and one per reading cell with the model and the
# band's envelope.
# Our a-priori reading (config/hstcp.yaml) is one reading of the band; the others differ only
# in tcp.pacing and topology.access_ratio.

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bufrepro.kit import configs, tables
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp import sides
from bufrepro.studies.hstcp.params import bdp_pkts, buffer_pkts, flows_bdp_pkts

KEYS = ("scenario", "pacing", "access_ratio", "buffer_frac")
METRICS = ("link_utilisation", "loss_rate")
FLOAT_FORMAT = "%.6g"


def runs_table(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """One row per band run: the reading, the seed, the buffer in packets and the metrics."""
    rows = []
    for d in run_dirs:
        record = tables.read_params(d)
        row: dict[str, Any] = {k: record[k] for k in KEYS}
        row["seed"] = record["seed"]
        row["buffer_pkts"] = record["params"]["buffer_pkts"]
        metrics = tables.read_bound_metrics(d)
        row.update({m: metrics.get(m) for m in METRICS})
        rows.append(row)
    return pd.DataFrame(rows).sort_values([*KEYS, "seed"], kind="mergesort")


def band_table(block: Block, runs: pd.DataFrame, model: pd.DataFrame) -> pd.DataFrame:
    """Per reading cell: mean utilisation and loss over seeds, both BDP axes, the model, and the
    band's envelope (lowest and highest reading) at that scenario and buffer fraction."""
    keys = list(KEYS)
    out = runs.groupby(keys, sort=True)[list(METRICS)].mean().reset_index()
    out.insert(len(keys), "seeds", runs.groupby(keys, sort=True)["seed"].count().to_numpy())
    pkt = block["packet_bytes"]
    scen = block["scenarios"]
    bufs = [
        buffer_pkts(float(f), bdp_pkts(scen[s], pkt))
        for s, f in zip(out["scenario"], out["buffer_frac"], strict=True)
    ]
    out["buffer_pkts"] = bufs
    out["buffer_frac_flows_bdp"] = [
        b / flows_bdp_pkts(scen[s], pkt) for s, b in zip(out["scenario"], bufs, strict=True)
    ]
    out["model_utilisation"] = [
        model_at(model, str(s), block["band"]["queue"], float(f))
        for s, f in zip(out["scenario"], out["buffer_frac"], strict=True)
    ]
    env = out.groupby(["scenario", "buffer_frac"])["link_utilisation"]
    out["band_low"] = env.transform("min")
    out["band_high"] = env.transform("max")
    apriori = (out["pacing"] == bool(block["tcp"]["pacing"])) & (
        out["access_ratio"] == block["topology"]["access_ratio"]
    )
    out["a_priori"] = apriori
    return out


def model_at(model: pd.DataFrame, scen: str, queue: str, frac: float) -> float:
    """The model's utilisation at one scenario, queue and buffer fraction (NaN if absent)."""
    hit = model[
        (model["scenario"] == scen)
        & (model["queue"] == queue)
        & ((model["buffer_frac"] - frac).abs() < 1e-9)
    ]
    return float(hit["utilisation"].iloc[0]) if not hit.empty else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    """Write band_runs.csv and band.csv from the band's runs (made by the batch rule)."""
    from bufrepro.studies.hstcp.model.table import band_model

    parser = argparse.ArgumentParser(prog="python -m bufrepro.studies.hstcp.band")
    for name in ("config", "runs", "band"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    cfg: dict[str, Any] = configs.read_yaml(Path(args.config))
    block = cfg["hstcp"]
    runs = runs_table(sides.run_dirs(block, "band"))
    runs.to_csv(args.runs, index=False, float_format=FLOAT_FORMAT)
    band = band_table(block, runs, band_model(block))
    band.to_csv(args.band, index=False, float_format=FLOAT_FORMAT)
    print(f"band: {len(runs)} runs, {len(band)} reading cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
