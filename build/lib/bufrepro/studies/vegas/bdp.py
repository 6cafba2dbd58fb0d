"""Tables V-VI of the vegas study (BDP, X = buffer / BDP) from the config, and the upper group."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

import pandas as pd

from bufrepro.kit.study import Block
from bufrepro.studies.vegas.params import READING
from bufrepro.studies.vegas.tables import cells, reading_of

BDP_TABLES = ("Table V", "Table VI")


def round_half_up(value: float, decimals: int) -> float:
    """value rounded half away from zero at `decimals` (as printed tables round)."""
    q = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(float(value))).quantize(q, rounding=ROUND_HALF_UP))


def bdp_pkts(rtt_ms: float, bottleneck_mbps: float, packet_bytes: int) -> float:
    """Eq. 5: RTT x bottleneck bandwidth / packet size, in packets."""
    return rtt_ms / 1000 * bottleneck_mbps * 1e6 / (8 * packet_bytes)


def largest_gap(ordered: Sequence[float]) -> int:
    """Where to split sorted values in two: the index of the first value above their largest gap
    (values[:i] is the lower group, values[i:] the upper). Needs at least two values."""
    gaps = [b - a for a, b in itertools.pairwise(ordered)]
    return max(range(len(gaps)), key=lambda i: gaps[i]) + 1


def upper_split(rtts: Sequence[float], tputs: Sequence[float]) -> set[float]:
    """The RTTs of the higher of two throughput groups, split at the largest gap between the
    sorted throughputs (the paper's two "boundaries" read off the data)."""
    pairs = sorted(zip(tputs, rtts, strict=True))
    if len(pairs) < 2:
        return {r for _, r in pairs}
    return {r for _, r in pairs[largest_gap([t for t, _ in pairs]) :]}


def bdp_table(block: Block) -> pd.DataFrame:
    """Tables V-VI from the config: per RTT the BDP, X = buffer / BDP, whether the RTT is in the
    text's upper boundary, the mean X over those, X as given (mean X at x_decimals) and the
    buffer X * BDP, calculated and rounded."""
    cfg = block["bdp"]
    bw = block["topology"]["bottleneck_mbps"]
    rows = []
    for rtt in cfg["rtt_ms"]:
        bdp = bdp_pkts(rtt, bw, cfg["packet_bytes"])
        rows.append(
            {
                "rtt_ms": rtt,
                "bdp_pkts": bdp,
                "buffer_pkts": cfg["buffer_pkts"],
                "ratio_X": cfg["buffer_pkts"] / bdp,
                "upper": rtt in cfg["upper_rtt_ms"],
            }
        )
    table = pd.DataFrame(rows)
    mean_x = float(table.loc[table["upper"], "ratio_X"].mean())
    given = round_half_up(mean_x, cfg["x_decimals"])
    table["mean_X"] = mean_x
    table["X_given"] = given
    table["buffer_calculated"] = given * table["bdp_pkts"]
    table["buffer_rounded"] = [round_half_up(v, 0) for v in table["buffer_calculated"]]
    return table


def bdp_report(block: Block, summary: pd.DataFrame) -> pd.DataFrame:
    """Tables V-VI as computed (bdp_table), with our Table IV cells beside them: the mean
    throughput of spaced Vegas in the diffed reading, whether our throughputs put the RTT in the
    upper group (upper_split), and the mean X over our upper group."""
    table = bdp_table(block)
    wide = cells(summary)
    reading = reading_of(block, "Table IV")
    sel = wide[(wide["setup"] == "rtt") & (wide["variant"] == "spacing")]
    sel = sel[(sel["packet_bytes"] == block["bdp"]["packet_bytes"])]
    for key in READING:
        sel = sel[sel[key] == reading[key]]
    tput = dict(zip(sel["rtt_ms"].astype(float), sel.get("tcp_throughput_kbps", []), strict=True))
    table["ours_throughput_kbps"] = [tput.get(float(r), float("nan")) for r in table["rtt_ms"]]
    known = [(float(r), t) for r, t in tput.items() if t == t]
    ours_upper = upper_split([r for r, _ in known], [t for _, t in known]) if known else set()
    table["ours_upper"] = [float(r) in ours_upper for r in table["rtt_ms"]]
    mine = table[table["ours_upper"]]
    table["ours_mean_X"] = float(mine["ratio_X"].mean()) if not mine.empty else float("nan")
    return table


def _decimals(value: float) -> int:
    text = repr(float(value))
    return len(text.split(".")[1]) if "." in text and not text.endswith(".0") else 0


def printed_decimals(published: pd.DataFrame) -> dict[tuple[str, str], int]:
    """Decimals each (table, metric) column is printed with: the most any of its values shows
    (a CSV number loses trailing zeros - 28.540 reads as 28.54)."""
    out: dict[tuple[str, str], int] = {}
    for (table, metric), g in published.groupby(["table", "metric"], sort=True):
        out[(str(table), str(metric))] = max(_decimals(float(v)) for v in g["value"])
    return out


def bdp_diff(block: Block, published: pd.DataFrame) -> pd.DataFrame:
    """Each printed value of Tables V-VI beside ours (computed, no CI): the difference, and
    whether ours printed at the paper's precision is the paper's number (matches_printed)."""
    ours = {
        (float(r["rtt_ms"]), col): float(r[col])
        for _, r in bdp_table(block).iterrows()
        for col in ("bdp_pkts", "ratio_X", "mean_X", "buffer_calculated", "buffer_rounded")
    }
    pub = published[published["table"].isin(BDP_TABLES)]
    decimals = printed_decimals(pub)
    rows = []
    for _, r in pub.iterrows():
        rtt = float(r["rtt_ms"])
        metric = str(r["metric"])
        column = {"bdp": "bdp_pkts"}.get(metric, metric)
        value = ours.get((rtt, column), float("nan"))
        printed = float(r["value"])
        places = decimals[(str(r["table"]), metric)]
        shown = round_half_up(value, places) if value == value else value
        rows.append(
            {
                "seed_file": r["seed_file"],
                "table": r["table"],
                "block": "" if r["block"] != r["block"] else r["block"],
                "row": r["row"],
                "rtt_ms": rtt,
                "published_column": metric,
                "metric": f"computed_{column}",
                "published": printed,
                "ours_mean": value,
                "ours_n": 0,
                "abs_diff": value - printed,
                "rel_diff": (value - printed) / printed if printed else float("nan"),
                "in_ci": None,
                "has_counterpart": value == value,
                "matches_printed": bool(shown == printed),
            }
        )
    return pd.DataFrame(rows)
