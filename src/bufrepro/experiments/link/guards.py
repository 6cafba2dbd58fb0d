"""The link's guard rails before any run: loss epochs per measured window, and the run's cost."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

from bufrepro.kit import units

# A measured window should hold at least this many loss epochs (sawtooth cycles) per flow: with
# fewer, the mean delay and the seed-to-seed intervals rest on a handful of cycles (issue 41:
# 50 Mbit/s, 200 ms, 1 flow, 500 RTTs held none and understated the delay by 39 %).
MIN_EPOCHS = 10
# Mathis et al.'s constant (W = K / sqrt(p)), for a flow's window under random loss.
MATHIS_K = math.sqrt(1.5)
# The cost model: bottleneck packets per CPU s of simulator and parser together, by simulator.
# ns2: the README link at 33660bf (80 runs of 24 s at 10 Mbit/s: 1.6e6 bottleneck packets, ns-2
# 9.3 CPU s + parsers 7.1 CPU s). ns3: the README link with CoDel, PIE and DropTail on ns-3
# (42 runs of 24 s, 2 seeds, 8.4e5 packets: ns-3 32.6-35.0 CPU s + parsers 13.5-14.6 CPU s,
# with RTTs spread and not; 2026-11-29): ns-3's TCP and queue discs cost about 6x ns-2's.
PACKETS_PER_CPU_S = MappingProxyType({"ns2": 1.0e5, "ns3": 1.7e4})
# Memory of one run: ns-2 holds each packet in flight (window or BDP + buffer) and each flow's
# nodes, links and agents; the parser keeps each measured packet's delay and (flow, seqno).
BYTES_PER_PACKET_IN_FLIGHT = 300
BYTES_PER_FLOW = 20_000
BYTES_PER_MEASURED_PACKET = 200
BASE_RUN_BYTES = 50e6


def sawtooth_rtts(bdp_pkts: float, flows: int, loss: float) -> float:
    """One flow's loss cycle in RTTs: its window halves from W to W/2 and climbs back, W/2 RTTs,
    with W its share of the BDP (or, under random loss, Mathis's K/sqrt(p) if smaller)."""
    window = bdp_pkts / flows
    if loss > 0:
        window = min(window, MATHIS_K / math.sqrt(loss))
    return max(1.0, window / 2)


def measure_for_epochs(rtt_s: float, bdp_pkts: float, flows: int, loss: float) -> float:
    """The measured time (s) that holds MIN_EPOCHS loss cycles of one flow."""
    return MIN_EPOCHS * sawtooth_rtts(bdp_pkts, flows, loss) * rtt_s


@dataclass(frozen=True)
class Cost:
    """The estimated cost of an experiment's runs."""

    runs: int
    packets: float
    cpu_s: float
    run_bytes: float


def estimate(
    bps: float,
    packet_bytes: int,
    duration_s: float,
    measured_s: float,
    in_flight_pkts: float,
    flows: int,
    runs: int,
    simulator: str = "ns2",
) -> Cost:
    """Packets through the bottleneck over every run, the CPU they take and one run's memory."""
    per_s = bps / 8 / packet_bytes
    packets = per_s * duration_s * runs
    memory = (
        BASE_RUN_BYTES
        + in_flight_pkts * BYTES_PER_PACKET_IN_FLIGHT
        + flows * BYTES_PER_FLOW
        + per_s * measured_s * BYTES_PER_MEASURED_PACKET
    )
    return Cost(runs, packets, packets / PACKETS_PER_CPU_S[simulator], memory)


def budget_problems(cost: Cost, cpu_text: str, memory_text: str, where: str) -> list[str]:
    """One sentence per budget the cost exceeds, naming the key that raises it."""
    cpu = units.seconds(cpu_text, f"{where}.budget.cpu")
    value, unit = units.buffer_text(memory_text, f"{where}.budget.memory")
    if unit not in units.BYTE_UNITS:
        raise units.UnitError(
            f"{where}.budget.memory: {memory_text!r}; allowed units: {', '.join(units.BYTE_UNITS)}"
        )
    memory = value * units.BYTE_UNITS[unit]
    found = []
    if cost.cpu_s > cpu:
        found.append(
            f"{where}.budget.cpu: the {cost.runs} runs would simulate about {cost.packets:.2g} "
            f"packets, about {cost.cpu_s:.2g} CPU s, above the budget of {cpu:g} s; raise it "
            "or ask for a smaller link, fewer flows, seeds or buffers"
        )
    if cost.run_bytes > memory:
        found.append(
            f"{where}.budget.memory: one run would need about {cost.run_bytes / 1e6:.3g} MB, "
            f"above the budget of {memory / 1e6:g} MB; raise it or ask for a smaller link"
        )
    return found
