"""The link experiment on ns-3: the program's arguments (ns3/link.cc) and what it cannot run."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bufrepro.backends.fingerprint import run_digest
from bufrepro.backends.simulators import ns3 as backend
from bufrepro.experiments.link.parsed import CBR_PACKET_BYTES, OTHER_QUEUE_PKTS, Link
from bufrepro.kit import prose
from bufrepro.kit.grid import RunPoint

PROGRAM = "link"
# The bottleneck's root disc holds the buffer less one, the device queue the last: at least 2.
MIN_BUFFER = 2
# ns-3's socket buffers are 32-bit byte counts: the window cap in bytes must fit.
MAX_SOCKET_BYTES = 2**32 - 1


def assumptions() -> Mapping[str, Mapping[str, Any]]:
    """Each ns-2 -> ns-3 mapping: its value and reason (ns3.yaml beside this module)."""
    found: Mapping[str, Mapping[str, Any]] = prose.load(Path(__file__).with_name("ns3.yaml"))[
        "assumptions"
    ]
    return found


def _value(name: str) -> Any:
    return assumptions()[name]["value"]


# The queues that mark with aqm.ecn (UseEcn true): the AQMs. DropTail and RED drop as ever
# (ns-2's RED runs without ECN, and RED marks only in the papers' drop-based mapping: no).
# Each with its "-scaled" variant (the ns3 backend's queue table).
MARKING = ("CoDel", "PIE", "FQ-CoDel")
ECN_QUEUES = tuple(q for q in backend.QUEUES if q.removesuffix("-scaled") in MARKING)
TARGET_KEYS = ("codel_target_ms", "pie_target_ms")


def packet_ms(link: Link) -> float:
    """One packet's transmission time at the bottleneck (ms)."""
    return float(link.packet_bytes * 8 / link.bps * 1000)


def targets(link: Link, how: str) -> dict[str, float]:
    """The AQMs' delay targets (ms): the RFCs' (ns3.yaml), or with `scaled` the ns3 backend's
    "-scaled" queues' rule (at least 1.5 packet transmission times at the bottleneck's rate,
    backend.scaled_target_ms; CoDel's interval raised to match, codel_interval_ms)."""
    out: dict[str, float] = {k: _value(k) for k in TARGET_KEYS}  # as ns3.yaml writes them
    if how == "scaled":
        ms = packet_ms(link)
        interval = backend.scaled_interval_ms(_value("codel_interval_ms"), out[TARGET_KEYS[0]], ms)
        out = {k: backend.scaled_target_ms(v, ms) for k, v in out.items()}
        out["codel_interval_ms"] = interval
    return out


def queue_attributes(
    link: Link,
    red: tuple[float, float, float, float],
    aqm_targets: Mapping[str, float],
    queue: str,
) -> dict[str, Any]:
    """The attributes the experiment gives its queue discs (each queue takes its own): RED's
    thresholds, weight and max_p (as LInterm, its inverse), the AQMs' settings of ns3.yaml and
    their delay targets (`targets`), and with aqm.ecn UseEcn on the ECN_QUEUES (marking)."""
    min_th, max_th, q_weight, max_p = red
    ms = "{:g}ms".format
    ecn = {"UseEcn": True} if link.ecn and queue in ECN_QUEUES else {}
    return {
        **ecn,
        "MinTh": round(min_th, 6),
        "MaxTh": round(max_th, 6),
        "QW": q_weight,
        "LInterm": 1.0 / max_p,
        "Gentle": True,
        "MeanPktSize": int(link.packet_bytes),
        "Target": ms(aqm_targets["codel_target_ms"]),
        "Interval": ms(aqm_targets.get("codel_interval_ms", _value("codel_interval_ms"))),
        "QueueDelayReference": ms(aqm_targets["pie_target_ms"]),
        "Flows": _value("fq_flows"),
        "Quantum": _value("fq_quantum_bytes"),
    }


def arguments(
    name: str,
    link: Link,
    point: RunPoint,
    red: tuple[float, float, float, float],
    aqm_targets: Mapping[str, float],
) -> dict[str, Any]:
    """The program's arguments for one run (only validated numbers and enum words)."""
    end = round(link.duration_s, 6)
    return {
        "experiment": name,
        "run": run_digest(point),
        "end": end,
        "duration": end,
        "seed": point.seed,
        **backend.queue_arguments(
            str(point.get("queue")),
            queue_attributes(link, red, aqm_targets, str(point.get("queue"))),
            packet_ms(link),
        ),
        "waiting": int(point.get("buffer")),
        "loss": link.loss,
        "rateMbps": round(link.bps / 1e6, 9),
        "bottleneckMs": round(link.spread_bottleneck_s * 1000, 6),
        "accessMbps": round(link.access_bps / 1e6, 9),
        "accessMs": round(link.access_s * 1000, 6),
        # Spread RTTs as the ns-2 scenario: flow i's access hop lo + i x step, the CBR's other.
        "flowAccessLoMs": round(link.flow_access_lo_s * 1000, 9),
        "flowAccessStepMs": round(link.flow_access_step_s * 1000, 12),
        "otherAccessMs": round(link.other_access_s * 1000, 9),
        "otherWaiting": OTHER_QUEUE_PKTS,
        "flows": link.flows,
        **backend.tcp_arguments(link.cc.agent, _value("tcp_recovery")),
        "sack": link.cc.settings.get("sack", "true"),
        "pacing": link.cc.settings.get("pacing", "false"),
        "ecn": "true" if link.ecn else "false",
        "timestamps": _value("timestamps"),
        "mss": link.mss,
        "iw": link.initial_window_pkts,
        "delAck": _value("delayed_ack_segments"),
        "windowPkts": link.window_pkts,
        "initialRto": _value("initial_rto_s"),
        "minRto": _value("min_rto_s"),
        "tick": _value("tick_s"),
        "startJitter": link.start_jitter_s,
        "cbrBytes": CBR_PACKET_BYTES,
        "cbrInterval": round(link.cbr_interval_s, 9),
    }


def problems(where: str, link: Link, block: Mapping[str, Any]) -> list[str]:
    """What the ns-3 program cannot run, each naming its key; a missing library names its
    apt package."""
    found = []
    why = backend.missing()
    if why:
        found.append(f"{where}.backend: ns3 cannot run here: {why}")
    if link.web_rate:
        found.append(
            f"{where}.flows.web_rate: {link.web_rate:g}; allowed on backend ns3: 0 (no PackMime "
            "in ns-3.37; web flows run on ns2)"
        )
    if link.buffer_lo < MIN_BUFFER:
        found.append(
            f"{where}.buffers.min: {link.buffer_lo} packets; allowed on backend ns3: at least "
            f"{MIN_BUFFER} (its queue disc holds one fewer than the buffer, the device queue "
            "the last)"
        )
    if link.window_pkts * link.mss > MAX_SOCKET_BYTES:
        found.append(
            f"{where}.flows.window: {link.window_pkts} packets of {link.mss} B exceed ns-3's "
            f"32-bit socket buffers; allowed on backend ns3: at most {MAX_SOCKET_BYTES // link.mss}"
        )
    return found
