"""What Ramya's Tables 1 and 5 imply on their own (B2, the RTT floor, Little, Mathis, drops)."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from bufrepro.kit import consistency as kc
from bufrepro.kit.study import Block, Tables

# Each table's columns: (throughput in kb/s from, RTT in s, drops) and the throughput's unit.
KBPS = {"goodput": 8 / 1e3, "throughput": 1.0}
MATHIS_C = math.sqrt(1.5)


def wide(published: pd.DataFrame) -> pd.DataFrame:
    """One row per printed row: table, buffer_frames, kbps, rtt_s, drops, queue_frames."""
    out = published.pivot_table(
        index=["table", "row", "buffer_frames"], columns="metric", values="value", aggfunc="first"
    ).reset_index()
    kbps = pd.Series(0.0, index=out.index)
    for column, factor in KBPS.items():
        if column in out:
            kbps = kbps + out[column].fillna(0) * factor
    return pd.DataFrame(
        {
            "table": out["table"],
            "buffer_frames": out["buffer_frames"],
            "kbps": kbps.where(kbps > 0),
            "rtt_s": out.get("avg_rtt", pd.Series(dtype=float)).fillna(out.get("rtt")),
            "drops": out.get("packets_dropped", pd.Series(dtype=float)).fillna(
                out.get("packet_drops")
            ),
            "queue_frames": out.get("avg_queue_length"),
        }
    )


def numbers(block: Block) -> dict[str, float]:
    """The stated B2 (Table 1's reading), the stated delays' round trip, frame size, run lengths."""
    topo, tcp = block["topology"], block["tcp"]
    return {
        "b2_kbps": block["readings"]["table1"]["bottleneck_mbps"] * 1e3,
        "rtt_floor_s": 2 * (2 * topo["access_delay_ms"] + topo["bottleneck_delay_ms"]) / 1e3,
        "frame": tcp["mss_bytes"] + tcp["header_bytes"],
        "mss": tcp["mss_bytes"],
    }


def _durations(block: Block) -> dict[str, float]:
    setups = block["setups"]
    return {"Table 1": setups["table1"]["duration_s"], "Table 5": setups["table5"]["duration_s"]}


def little_slope(n: dict[str, float]) -> kc.Measure:
    """RTT per queued frame from the first to the last row, against one frame at the stated B2."""

    def measure(df: pd.DataFrame) -> kc.Measured | None:
        rows = df.dropna(subset=["rtt_s", "queue_frames"]).sort_values("buffer_frames")
        if len(rows) < 2:
            return None
        first, last = rows.iloc[0], rows.iloc[-1]
        slope_ms = (last["rtt_s"] - first["rtt_s"]) / (last["queue_frames"] - first["queue_frames"])
        slope_ms *= 1e3
        expected = n["frame"] * 8 / n["b2_kbps"]
        rate = n["frame"] * 8 / slope_ms
        ok = abs(slope_ms / expected - 1) <= 0.2
        return kc.Measured(slope_ms, expected, ok, {"rate_kbps": rate})

    return measure


def mathis(n: dict[str, float], durations: dict[str, float]) -> kc.Measure:
    """Throughput at most Mathis et al.'s MSS/RTT * sqrt(3/2)/sqrt(p), p = drops / segments."""

    def bound(df: pd.DataFrame) -> pd.Series:
        seconds = df["table"].map(durations)
        segments = df["kbps"] * 1e3 * seconds / (8 * n["frame"])
        p = df["drops"] / segments
        return n["mss"] * 8 / df["rtt_s"] * MATHIS_C / p.pow(0.5) / 1e3

    def detail(row: pd.Series) -> dict[str, Any]:
        segments = row["kbps"] * 1e3 * durations[row["table"]] / (8 * n["frame"])
        return {"buffer": row["buffer_frames"], "share": row["drops"] / segments}

    return kc.at_most(lambda df: df["kbps"], bound, detail)


def checks(block: Block) -> list[kc.Check]:
    """Every check of Tables 1 and 5."""
    n = numbers(block)
    by_table = ("table",)
    return [
        kc.Check(
            "throughput_le_stated_b2",
            kc.at_most(lambda df: df["kbps"], lambda df: pd.Series(n["b2_kbps"], index=df.index)),
            "Throughput stays below the stated B2 ({value:.0f} of {expected:.0f} kb/s at most).",
            "Throughput {value:.0f} kb/s exceeds the stated B2 of {expected:.0f} kb/s: this "
            "table ran over a faster bottleneck (at least {value:.0f} kb/s).",
            by_table,
        ),
        kc.Check(
            "rtt_ge_stated_delays",
            kc.at_least(
                lambda df: df["rtt_s"], lambda df: pd.Series(n["rtt_floor_s"], index=df.index)
            ),
            "Every RTT is at least the stated delays' round trip ({expected:.3f} s).",
            "An RTT of {value:.3f} s is below the stated delays' round trip ({expected:.3f} s): "
            "the stated D1 + D2 + D3 cannot all hold one way; half of them (a "
            f"{n['rtt_floor_s'] / 2:.3f} s no-load RTT, the text's 'shortest possible round-trip "
            "time') would.",
            by_table,
        ),
        kc.Check(
            "little_rtt_per_queued_frame",
            little_slope(n),
            f"The RTT rises {{value:.2f}} ms per queued frame, one {n['frame']:g} B frame at the "
            "stated B2 ({expected:.2f} ms): Little's law agrees with the stated link.",
            f"The RTT rises {{value:.2f}} ms per queued frame, where one {n['frame']:g} B frame "
            "at the stated B2 takes {expected:.2f} ms: the queue drains at about "
            "{rate_kbps:.0f} kb/s, so this table's bottleneck is that fast, not the stated B2.",
            by_table,
        ),
        kc.Check(
            "throughput_within_mathis",
            mathis(n, _durations(block)),
            "Throughput is within Mathis et al.'s estimate for its drop share and RTT: the "
            "drops can be the flow's own independent losses.",
            "At {buffer:g} frames, {share:.1%} of the segments dropped allow about "
            "{expected:.0f} kb/s at the printed RTT by Mathis et al.'s estimate for independent "
            "losses, yet {value:.0f} kb/s is printed: the drops come in bursts (many per window, "
            "one window cut each), or are not all this flow's losses over this run.",
            by_table,
        ),
        kc.Check(
            "drops_fall_with_buffer",
            kc.monotone("buffer_frames", "drops", increasing=False),
            "Drops fall as the buffer grows.",
            "Drops rise with the buffer at {steps} frames: one run's noise, or a loss count "
            "that does not come from the queue alone.",
            by_table,
        ),
        kc.Check(
            "rtt_grows_with_buffer",
            kc.monotone("buffer_frames", "rtt_s"),
            "The RTT grows with the buffer, as a standing queue's does.",
            "The RTT falls as the buffer grows at {steps} frames.",
            by_table,
        ),
    ]


def consistency(block: Block, tables: Tables) -> pd.DataFrame:
    """results/ramya/tables/consistency.csv: each check per published table."""
    return kc.run_checks("ramya", wide(tables["published"]), checks(block), table_cols=("table",))
