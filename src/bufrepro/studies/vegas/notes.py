"""The vegas study's notes: readings vs tables, the choices made, what ns-2 models differently."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from bufrepro.kit.study import Block
from bufrepro.studies.vegas.bdp import largest_gap, upper_split
from bufrepro.studies.vegas.params import (
    HEADER_BYTES,
    RANGE_M,
    READING,
    bottleneck_delay_ms,
    geometry,
)
from bufrepro.studies.vegas.tables import METRICS, TABLES, cells, reading_of, table_diff

COLUMNS = ["section", "topic", "paper", "ours", "note"]


def _label(reading: Mapping[str, Any]) -> str:
    return f"transfer from {reading['start_s']:g} s, buffer {reading['buffer']}"


def reading_fits(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame
) -> list[dict[str, str]]:
    """Each of Tables II-IV against every reading (buffer, start) of its setup that we ran."""
    wide = cells(summary)
    frac = block["claims"]["fit_frac"]
    rows = []
    for table, (setup, variant) in TABLES.items():
        configured = reading_of(block, table)
        sub = wide[(wide["setup"] == setup) & (wide["variant"] == variant)]
        for _, opt in sub[list(READING)].drop_duplicates().iterrows():
            reading = {**configured, **{k: opt[k] for k in READING}}
            d = table_diff(published, summary, table, reading)
            d = d[d["has_counterpart"]]
            if d.empty:
                continue
            rel = d["rel_diff"].abs()
            per = ", ".join(
                f"{col} {rel[d['published_column'] == col].median():.0%}"
                for col in METRICS
                if (d["published_column"] == col).any()
            )
            diffed = all(reading[k] == configured[k] for k in READING)
            rows.append(
                {
                    "section": "which reading fits which table",
                    "topic": f"{table} vs {_label(reading)}",
                    "paper": f"{variant} Vegas, {len(d)} printed values",
                    "ours": (
                        f"median |rel. diff| {rel.median():.0%} ({per}); {(rel <= frac).sum()} "
                        f"within {frac:.0%}, {int(d['in_ci'].sum())} inside our 95% CI"
                    ),
                    "note": "diffed" if diffed else "",
                }
            )
    return rows


def _groups_text(rtts: list[float], tputs: list[float]) -> str:
    """Two throughput groups split at the largest gap: each group's range and its RTTs."""
    upper = upper_split(rtts, tputs)
    parts = []
    for name, inside in (("upper", True), ("lower", False)):
        sel = sorted((r, t) for r, t in zip(rtts, tputs, strict=True) if (r in upper) == inside)
        vals = [t for _, t in sel]
        at = ", ".join(f"{r:g}" for r, _ in sel)
        parts.append(f"{name} {min(vals):.0f}-{max(vals):.0f} kb/s at {at} ms")
    return "; ".join(parts)


def paper_groups(published: pd.DataFrame) -> str:
    """Table IV's printed throughputs (one run per RTT) split at their largest gap."""
    tab = published[
        (published["table"] == "Table IV") & (published["metric"] == "network_throughput")
    ]
    if len(tab) < 2:
        return "Table IV: fewer than two printed throughputs"
    rtts = list(tab["rtt_ms"].astype(float))
    return f"Table IV (one run per RTT): {_groups_text(rtts, list(tab['value'].astype(float)))}"


def mode_notes(runs: pd.DataFrame, published: pd.DataFrame) -> list[dict[str, str]]:
    """How the seeds spread. RTT setup (one packet size), per variant and transfer start: the
    runs' throughputs split in two at their largest gap, the two groups' ranges, and per RTT how
    many seeds land in the upper group (were the boundaries a property of the RTT, all seeds of
    an RTT would land in one group), beside Table IV's own two groups. Packet setup: each packet
    size's range over the seeds."""
    rows = []
    paper_rtt = paper_groups(published)
    for (setup, variant, start), g in runs.groupby(["setup", "variant", "start_s"], sort=True):
        topic = f"{setup}, {variant} Vegas, transfer from {start:g} s"
        if setup == "packet":
            tput = g.groupby("packet_bytes", sort=True)["tcp_throughput_kbps"]
            spread = ", ".join(
                f"{v:g} B: {lo:.0f}-{hi:.0f}"
                for (v, lo), hi in zip(tput.min().items(), tput.max(), strict=True)
            )
            rows.append(
                {
                    "section": "how the seeds spread",
                    "topic": topic,
                    "paper": "one run per row",
                    "ours": f"throughput over the seeds (kb/s) - {spread}",
                    "note": "",
                }
            )
            continue
        ordered = sorted(g["tcp_throughput_kbps"].astype(float))
        if len(ordered) < 2:
            continue
        cut = largest_gap(ordered)
        low, high = ordered[:cut], ordered[cut:]
        counts = ", ".join(
            f"{v:g}: {int((h['tcp_throughput_kbps'] >= high[0]).sum())}/{len(h)}"
            for v, h in g.groupby("rtt_ms", sort=True)
        )
        rows.append(
            {
                "section": "how the seeds spread",
                "topic": topic,
                "paper": paper_rtt,
                "ours": (
                    f"{len(low)} runs at {low[0]:.0f}-{low[-1]:.0f} kb/s, {len(high)} at "
                    f"{high[0]:.0f}-{high[-1]:.0f} kb/s (split at the largest gap); seeds in the "
                    f"upper group per RTT (ms): {counts}"
                ),
                "note": "",
            }
        )
    return rows


def choice_notes(block: Block) -> list[dict[str, str]]:
    """Where the paper is silent or contradicts itself, and what we did."""
    geo = geometry(block)
    mob = block["mobility"]
    pkt = block["readings"]["packet"]
    rows = [
        (
            "transfer start",
            "not stated; 'Initially, MN is located in HN. At t=5s, MN moves towards FN1'",
            f"diffed: from {pkt['start_s']:g} s; runs from "
            + ", ".join(f"{v:g}" for v in sorted({v for w in block["grid"] for v in w["start_s"]}))
            + " s (1 s: at home; 12 s: attached to AR1)",
            "Vegas keeps the smallest RTT it ever saw as base RTT: a transfer begun at home (HA - "
            "MN about 10 ms) may read the 120 ms foreign path as queueing and stay near 2 "
            "packets ('how the seeds spread' below)",
        ),
        (
            "RTT of Tables II-III and of Table IV",
            "Tables II-III 'fixed RTT' (value not stated); Table IV 40-150 ms, how set not stated",
            f"RTT = propagation round trip of CN - N1 - MAP - AR; N1 - MAP delay = RTT / 2 - "
            f"{block['topology']['cn_delay_ms'] + block['topology']['ar_delay_ms']:g} ms "
            f"({pkt['rtt_ms']:g} ms gives {bottleneck_delay_ms(block, pkt['rtt_ms']):g} ms, "
            "Table I's)",
            "the HA detour (+2 x HA - N1 delay for data) and the 802.11 hop come on top",
        ),
        (
            "speed between the ARs",
            "'normal human speed, 1m/s' and 'a really fast speed of 100m/s'",
            f"home -> AR1 at {mob['home_to_fn1_mps']:g} m/s from {mob['leave_home_s']:g} s; "
            f"AR1 -> AR2 at {mob['fn1_to_fn2_mps']:g} m/s from {mob['fn1_to_fn2_s']:g} s",
            "at 1 m/s over 80 m of overlap the handover would come after t = 110 s",
        ),
        (
            "cells",
            "AR1 and AR2 overlap by 80 m; the home network's place is not given",
            f"on a line: HA at {geo['ha_x_m']:g} m, AR1 at {geo['ar1_x_m']:g} m, AR2 at "
            f"{geo['ar2_x_m']:g} m, cells of {RANGE_M:g} m (ns-2's default radio)",
            "wireless.cell_overlap_m, wireless.home_gap_m",
        ),
        (
            "durations",
            "Section V: 100 s for every run; VI.ii: 500 s for the RTT experiment",
            f"packet: {block['setups']['packet']['duration_s']:g} s, rtt: "
            f"{block['setups']['rtt']['duration_s']:g} s",
            "vegas.setups",
        ),
        (
            "packet size",
            "FTP packet size 64-1024 B; 'for the packet size that exceeds 1000 bytes, ns2 will "
            "perform fragmentation'",
            f"ns-2 Vegas sends packetSize_ bytes per packet, {HEADER_BYTES} B of TCP/IP header "
            "included; ns-2 does not fragment, a 1024 B packet crosses every link whole",
            "throughput counts whole packets; goodput (tcp_goodput_kbps) excludes the headers",
        ),
        (
            "64 B rows",
            "Tables II-III print 64 B rows; the text lists 128-1024 B",
            "64 B is run and diffed",
            "",
        ),
    ]
    return [
        {
            "section": "choices where the paper is silent or contradicts itself",
            "topic": t,
            "paper": p,
            "ours": o,
            "note": n,
        }
        for t, p, o, n in rows
    ]


def difference_notes(block: Block) -> list[dict[str, str]]:
    """What ns-2.35 models differently from the paper's wireless IPv6 / HMIPv6 setup."""
    wl = block["wireless"]
    rows = [
        (
            "IPv6 and HMIPv6",
            "IPv6 addresses; the MN registers its regional care-of address (RCoA) with the MAP "
            "and the MAP tunnels to its on-link address (LCoA); only the MAP learns of a move "
            "between AR1 and AR2",
            "ns-2.35 has no IPv6: Mobile IPv4 - the HA tunnels to a foreign agent's care-of "
            "address (AR1's or AR2's), and every move is a registration with the HA via the new "
            "foreign agent",
            "a handover costs an HA round trip (~110 ms) instead of a MAP round trip; the MAP "
            "is a plain router",
        ),
        (
            "routing of data",
            "with a binding at the CN, packets go CN -> MAP -> AR (route optimisation); the text "
            "says packets 'will be directed to RCoA'",
            "Mobile IPv4 without route optimisation: CN -> N1 -> HA -> N1 -> MAP -> AR "
            "(triangle routing); ACKs go MN -> AR -> MAP -> N1 -> CN directly",
            "data pass N1 twice; 4 ms more one-way delay at the stated HA link",
        ),
        (
            "movement detection",
            "IPv6 router advertisements; LCoA1 kept until the MN leaves FN1",
            "Mobile IPv4 agent advertisements every second (ns-2 Agent/MIPBS); the MN switches "
            "agents when the old one's advertisements stop",
            "packets tunnelled to the old AR after the MN left are lost (802.11 retries, then "
            "a drop) - the efficiency below 100%",
        ),
        (
            "wireless routing",
            "not stated (IPv6 neighbour discovery)",
            "DSDV in the base stations and the MN (ns-2's Mobile IP examples); DSDV buffers "
            "packets for a destination it has no route to, and ns-2 frees some without a drop "
            "line",
            "counted as stranded (lost) packets: tcp_stranded_pkts",
        ),
        (
            "802.11",
            "802.11b access (Table I lists AR1 and AR2 at 1 Mb/s)",
            f"802.11 DCF at {wl['data_rate_mbps']:g} Mb/s (basic rate {wl['basic_rate_mbps']:g} "
            "Mb/s), TwoRayGround, 250 m cells, one channel shared by all cells; the 1 Mb/s "
            "is the wired MAP - AR link",
            "the MAP - AR link (1 Mb/s) is slower than the 2 Mb/s 'bottleneck': queues build "
            "at MAP, not at N1",
        ),
        (
            "packet spacing",
            "eq. 3: the sender waits current RTT / current cwnd between segments",
            "patched ns-2 (ns2/patches/0002): after each new segment the sender waits srtt / "
            "min(cwnd, window) (srtt in tcpTick_ units); no spacing before the first RTT sample; "
            "fast retransmissions are not delayed",
            "'current RTT measurement' read as the smoothed RTT",
        ),
        (
            "randomness",
            "one run per table row",
            "the seed drives 802.11 back-off and DSDV jitter; 10 seeds per cell",
            "confidence intervals show the spread of that randomness only",
        ),
    ]
    return [
        {
            "section": "wireless IPv6 / HMIPv6 vs ns-2.35",
            "topic": t,
            "paper": p,
            "ours": o,
            "note": n,
        }
        for t, p, o, n in rows
    ]


def definition_notes() -> list[dict[str, str]]:
    """How the paper's words map to our metrics (exact texts in the AWK headers)."""
    rows = [
        (
            "network delay (ms)",
            "tcp_delay_ms_mean: mean over data packets of receipt by the MN's TCP agent minus "
            "first enqueue at the CN (awk/vegas/vegas.awk)",
        ),
        (
            "network throughput (kbps)",
            "tcp_throughput_kbps: bits of data packets received by the MN's agent over the "
            "measurement window (awk/vegas/vegas.awk)",
        ),
        (
            "network efficiency (%)",
            "tcp_efficiency_pct: delivered / (delivered + lost) data packets, lost = dropped + "
            "stranded, in flight at the end excluded (awk/vegas/vegas.awk); the paper's ~99% "
            "fits a delivery ratio",
        ),
        (
            "delay w.r.t. throughput",
            "delay_per_throughput: delay / throughput per run, averaged over seeds "
            "(awk/vegas/vegas.awk; the paper divides its table's delay by its throughput)",
        ),
    ]
    return [
        {"section": "the paper's words", "topic": t, "paper": "", "ours": o, "note": ""}
        for t, o in rows
    ]


def notes(
    block: Block, summary: pd.DataFrame, published: pd.DataFrame, runs: pd.DataFrame
) -> pd.DataFrame:
    """The notes table: readings vs tables, the runs' two groups, the choices made, the
    simulator differences, the paper's words."""
    rows = reading_fits(block, summary, published)
    rows += mode_notes(runs, published)
    rows += choice_notes(block)
    rows += difference_notes(block)
    rows += definition_notes()
    return pd.DataFrame(rows, columns=COLUMNS)
