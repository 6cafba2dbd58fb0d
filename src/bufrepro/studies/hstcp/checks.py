"""Config problems of the hstcp block that its schema cannot see, each naming its key."""

from __future__ import annotations

from typing import Any

from bufrepro.kit.configs import measure_problems
from bufrepro.kit.study import Block
from bufrepro.studies.hstcp.params import band_scenarios

# Counters are sampled often enough that the byte counters (signed 32-bit) cannot wrap twice
# between two samples: at most 2^31 bytes may leave the bottleneck per sample interval.
WRAP_BYTES = 2**31


def red_problems(red: Any) -> list[str]:
    """RED's lower threshold must be below its upper one (fractions of min(BDP, buffer))."""
    if red["min_th_frac"] >= red["max_th_frac"]:
        return [
            f"config key hstcp.red.min_th_frac: must be below red.max_th_frac "
            f"({red['min_th_frac']} >= {red['max_th_frac']})"
        ]
    return []


def scenario_problems(block: Block) -> list[str]:
    """Grid scenarios that are defined, RTTs above the path's delay, counters that cannot wrap."""
    problems = []
    scenarios = block["scenarios"]
    named = [("grid", n) for n in block["grid"]["scenario"]]
    named += [("twin", n) for n in (block.get("twin") or {}).get("scenario", [])]
    for where, name in named:
        if name not in scenarios:
            problems.append(
                f"config key hstcp.{where}.scenario: {name!r} is not defined under "
                f"hstcp.scenarios (defined: {sorted(scenarios)})"
            )
    measure = block["measure"]
    pkt = block["packet_bytes"]
    for name, sc in sorted(scenarios.items()):
        if sc["rtt_min_ms"] > sc["rtt_max_ms"]:
            problems.append(f"config key hstcp.scenarios.{name}.rtt_min_ms: above rtt_max_ms")
        floor = 2 * (sc["bottleneck_delay_ms"] + block["topology"]["sink_delay_ms"])
        if sc["rtt_min_ms"] <= floor:
            problems.append(
                f"config key hstcp.scenarios.{name}.rtt_min_ms: {sc['rtt_min_ms']} ms must exceed "
                f"2 x (bottleneck delay + sink delay) = {floor} ms"
            )
        ratio = block["topology"]["access_ratio"]
        if ratio * sc["n_flows"] <= 1:
            problems.append(
                f"config key hstcp.topology.access_ratio: {ratio} x {sc['n_flows']} flows of "
                f"{name} must exceed 1 (the access links together faster than R1-R2)"
            )
        per_sample = sc["bottleneck_mbps"] * 1e6 / 8 * measure["sample_s"]
        if per_sample >= WRAP_BYTES:
            problems.append(
                f"config key hstcp.measure.sample_s: {measure['sample_s']} s lets "
                f"{per_sample:.3g} B leave the {name} bottleneck between samples; the 32-bit "
                f"byte counters need fewer than 2^31 (sample more often)"
            )
        if sc["bottleneck_mbps"] * 1e6 / (8 * pkt) * measure["duration_s"] >= WRAP_BYTES:
            problems.append(f"config key hstcp.measure.duration_s: too long for {name}")
    return problems


def twoflow_problems(block: Block) -> list[str]:
    """The two-flow runs' sampling, RTTs and window, and flows that start before the windows."""
    problems = []
    measure = block["measure"]
    tf = block["twoflow"]
    per_sample = tf["bottleneck_mbps"] * 1e6 / 8 * measure["sample_s"]
    if per_sample >= WRAP_BYTES:
        problems.append("config key hstcp.measure.sample_s: too coarse for the two-flow link")
    if min(tf["rtts_ms"]) <= 2 * (tf["bottleneck_delay_ms"] + block["topology"]["sink_delay_ms"]):
        problems.append("config key hstcp.twoflow.rtts_ms: below the two-flow path's delay")
    if tf["warmup_s"] >= tf["duration_s"]:
        problems.append("config key hstcp.twoflow.warmup_s: must be below twoflow.duration_s")
    tcp = block["tcp"]
    for key, warm in (("measure", measure["warmup_s"]), ("twoflow", tf["warmup_s"])):
        if tcp["start_s"] + tcp["start_jitter_s"] >= warm:
            problems.append(
                f"config key hstcp.tcp.start_jitter_s: every flow must start before "
                f"hstcp.{key}.warmup_s ({warm} s), but start_s + start_jitter_s = "
                f"{tcp['start_s'] + tcp['start_jitter_s']} s"
            )
    return problems


def band_problems(block: Block) -> list[str]:
    """The readings band's scenarios are defined, and its access ratios keep R1-R2 the
    bottleneck."""
    problems = []
    scenarios = block["scenarios"]
    for name in band_scenarios(block):
        if name not in scenarios:
            problems.append(
                f"config key hstcp.band.scenario: {name!r} is not defined under hstcp.scenarios "
                f"(defined: {sorted(scenarios)})"
            )
            continue
        n = scenarios[name]["n_flows"]
        for ratio in block["band"]["access_ratio"]:
            if ratio * n <= 1:
                problems.append(
                    f"config key hstcp.band.access_ratio: {ratio} x {n} flows of {name} must "
                    "exceed 1 (the access links together faster than R1-R2)"
                )
    return problems


def check(block: Block) -> list[str]:
    """Every problem, in the order the old config check gave them (window, RED, the rest)."""
    return [
        *measure_problems("hstcp", block["measure"]),
        *red_problems(block["red"]),
        *scenario_problems(block),
        *twoflow_problems(block),
        *band_problems(block),
    ]
