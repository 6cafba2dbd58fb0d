"""What the link kind can run: queues and congestion controls by backend (one line each)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bufrepro import backends

# The `backend` key's value that picks one: ns2 unless a queue asked for is on ns3 only.
AUTO = "auto"


class Cc:
    """One congestion control in ns-2: sender and sink agents, per-agent settings, Linux CA."""

    def __init__(
        self,
        label: str,
        agent: str,
        sink: str,
        settings: Mapping[str, str] = MappingProxyType({}),
        linux_ca: str = "",
        header_bytes: int = 40,
        beta: float | None = None,
    ) -> None:
        self.label, self.agent, self.sink = label, agent, sink
        self.settings, self.linux_ca, self.header_bytes = settings, linux_ca, header_bytes
        # The window's multiplicative decrease factor on a loss, where it is one number.
        self.beta = beta


# The `flows.cc` names on ns-2.35 (Debian's ns2): one-way senders with their sinks; CUBIC is
# the Linux kernel's code in Agent/TCP/Linux (timestamps on: 10 B more header per packet);
# HighSpeed is ns-2's windowOption_ 8 on the SACK sender (its decrease depends on the window).
CCS_NS2: Mapping[str, Cc] = MappingProxyType(
    {
        "sack": Cc("SACK (Agent/TCP/Sack1)", "Sack1", "TCPSink/Sack1", beta=0.5),
        "newreno": Cc("NewReno (Agent/TCP/Newreno)", "Newreno", "TCPSink", beta=0.5),
        "reno": Cc("Reno (Agent/TCP/Reno)", "Reno", "TCPSink", beta=0.5),
        "cubic": Cc(
            "CUBIC (Agent/TCP/Linux, select_ca cubic)",
            "Linux",
            "TCPSink/Sack1",
            linux_ca="cubic",
            header_bytes=50,
            beta=0.7,
        ),
        "highspeed": Cc(
            "HighSpeed TCP (Agent/TCP/Sack1, windowOption_ 8)",
            "Sack1",
            "TCPSink/Sack1",
            settings=MappingProxyType({"windowOption_": "8"}),
        ),
    }
)
# The `flows.cc` names on ns-3.37 (ns3/link.cc's --tcp and --sack; experiments/link/ns3.yaml
# names each mapping): SACK is NewReno's window rules with SACK recovery, as ns-2's Sack1;
# CUBIC, HighSpeed and BBR are ns-3's TcpCubic, TcpHighSpeed and TcpBbr (no timestamps: 40 B of
# headers); BBR's sockets are paced (--pacing; ns3.yaml's assumption bbr_pacing).
CCS_NS3: Mapping[str, Cc] = MappingProxyType(
    {
        "sack": Cc("SACK (ns3::TcpNewReno, SACK on)", "NewReno", "", {"sack": "true"}, beta=0.5),
        "newreno": Cc("NewReno (ns3::TcpNewReno)", "NewReno", "", {"sack": "false"}, beta=0.5),
        "cubic": Cc("CUBIC (ns3::TcpCubic)", "Cubic", "", {"sack": "true"}, beta=0.7),
        "highspeed": Cc("HighSpeed TCP (ns3::TcpHighSpeed)", "HighSpeed", "", {"sack": "true"}),
        "bbr": Cc("BBR (ns3::TcpBbr, paced)", "Bbr", "", {"sack": "true", "pacing": "true"}),
    }
)
CCS: Mapping[str, Mapping[str, Cc]] = MappingProxyType({"ns2": CCS_NS2, "ns3": CCS_NS3})


def queues() -> dict[str, tuple[str, ...]]:
    """Each queue the link's `queues` key accepts, and the backends that have it: read from
    each backend's one table of queues (Backend.queues), so a queue joins with one entry there."""
    found: dict[str, tuple[str, ...]] = {}
    for backend in backends.names():
        for queue in backends.queues(backend):
            found[queue] = (*found.get(queue, ()), backend)
    return found


def backend_of(block: Mapping[str, object]) -> str:
    """The block's simulator: its `backend`, or for auto ns2 unless a queue is on ns3 only."""
    chosen = str(block.get("backend", AUTO))
    if chosen != AUTO:
        return chosen
    asked = [str(q) for q in block.get("queues", []) or []]  # type: ignore[attr-defined]
    table = queues()
    only_ns3 = [q for q in asked if q in table and "ns2" not in table[q]]
    return "ns3" if only_ns3 else "ns2"


def cc_problem(cc: str, backend: str, where: str) -> str:
    """Why congestion control `cc` cannot run on `backend` when another backend has it (naming
    that backend), or '' (unknown names are units.choice's to refuse, with a hint)."""
    others = [b for b, table in CCS.items() if cc in table and b != backend]
    if cc in CCS[backend] or not others:
        return ""
    return (
        f"{where}: {cc} is not in backend {backend} (allowed on {backend}: "
        f"{', '.join(CCS[backend])}); backend {' or '.join(others)} has it: ask for backend "
        f"{' or '.join(others)} (--simulator, config key backend)"
    )


def queue_problem(queue: str, backend: str, where: str) -> str:
    """Why `queue` cannot run on `backend` (naming the backends that have it), or ''."""
    from bufrepro.kit.units import hint

    table = queues()
    if queue not in table:
        return f"{where}: unknown queue {queue!r}{hint(queue, table)}; allowed: {', '.join(table)}"
    if backend in table[queue]:
        return ""
    runnable = ", ".join(q for q, b in table.items() if backend in b)
    return (
        f"{where}: {queue} is not in backend {backend} (allowed on {backend}: {runnable}); "
        f"backend {', '.join(table[queue])} has it: ask for backend {' or '.join(table[queue])} "
        f"(--simulator, config key backend), or leave it at {AUTO}"
    )
