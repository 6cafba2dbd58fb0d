"""The hstcp study's runs on each simulator: ns-2's template, ns-3's program, one parser."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bufrepro.kit.declaration import NS3_UNTRACED, Block, Declaration, OnBlock
from bufrepro.kit.grid import RunPoint
from bufrepro.studies.hstcp import params


class Ns2(OnBlock):
    """tcl/hstcp on the patched ns-2 (tcp.pacing is its spacing_; with pacing off it runs stock
    ns-2's TCP): flow-monitor samples and the bottleneck's drops into a named pipe."""

    template = params.TEMPLATE
    parser = params.PARSER
    stream = params.STREAM
    options = params.BACKEND_OPTIONS

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Template variables of one grid run (a side run's, in sides.py's subclasses)."""
        return params.params(setup, point)

    def parse_args(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """hstcp.awk's -v variables: window, end, bottleneck nodes, capacity, packet size, and
        the M line's buffer, flow count and sample interval the stream must carry."""
        p = self.params(setup, point)
        args = params.awk_args(p)
        args.update(buffer=p["buffer_pkts"], flows=len(p["flows"]), sample_s=p["sample_s"])
        return args


class Ns3(OnBlock):
    """ns3/hstcp.cc: writes the same stream, read by the same parser."""

    untraced = NS3_UNTRACED
    template = "hstcp"
    parser = params.PARSER
    stream = params.STREAM

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """The ns-3 program's arguments (studies/hstcp/ns3.py)."""
        from bufrepro.studies.hstcp import ns3

        return ns3.arguments(setup, point)

    def parse_args(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """ns-2's parser variables: the program's stream is the same."""
        return NS2.parse_args(setup, point)

    def check(self, setup: Block) -> list[str]:
        """What the ns-3 program cannot run (other HSTCP parameters, pacing, events)."""
        from bufrepro.studies.hstcp import ns3

        return ns3.problems("hstcp", setup)


NS2 = Ns2()
DECLARATIONS: Mapping[str, Declaration[Block]] = MappingProxyType({"ns2": NS2, "ns3": Ns3()})
