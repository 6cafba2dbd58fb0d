"""The dumbbell study's runs on each simulator: ns-2's template, ns-3's program, their parsers."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bufrepro.backends import tally
from bufrepro.kit.declaration import NS3_UNTRACED, Block, Declaration, OnBlock
from bufrepro.kit.grid import RunPoint
from bufrepro.studies.dumbbell import http, params

STREAM = params.TRACE_FILE
PARSER = "dumbbell/dumbbell.awk"
TALLY_PARSER = "dumbbell/dumbbell_tally.awk"


class Ns2(OnBlock):
    """tcl/dumbbell (FTP or PackMime HTTP) on ns-2: Debian's ns for a text trace, the patched
    ns for a tally."""

    template = "dumbbell/dumbbell.tcl.j2"
    parser = PARSER
    stream = STREAM
    # The HTTP reading's runs: their parser, and PackMime's logs it reads (deleted after the run).
    other_parsers = (http.PARSER, http.TALLY_PARSER)
    tally_parser = TALLY_PARSER
    side_files = (http.OBJECTS_FILE, http.REQUESTS_FILE)
    # trace_level tally counts in the patched ns (built first); full runs Debian's ns.
    options = MappingProxyType({"build": "tally"})

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Template variables of one run (trace_level "none" is the benchmark's ns alone)."""
        made = params.params(setup, point)
        names = tally.PARAMS + (http.TALLY_PARAMS if http.is_http(setup) else ())
        made.update(tally.template_vars(setup["trace_level"], self.parse_args(setup, point), names))
        return made

    def parser_for(self, setup: Block, point: RunPoint) -> str:
        """The tally stream's parser (http_tally.awk, dumbbell_tally.awk) at trace_level tally,
        the text trace's (http.awk, dumbbell.awk) at full: under HTTP the web objects' too."""
        if not http.is_http(setup):
            return super().parser_for(setup, point)
        return http.TALLY_PARSER if setup["trace_level"] == "tally" else http.PARSER

    def parse_args(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Parser variables of one run, with the scenario's fingerprint (nodes, links, delay)."""
        args = params.parse_args(setup, point)
        # Nodes 0-3 sources, 4-5 routers, 6-7 sinks, 8... further TCP sources (tcl/dumbbell):
        # the links the trace may name.
        extra = [n for n in params.tcp_nodes(setup["tcp"]["sources"]) if n > 7]
        links = ["0-4", "1-4", "2-4", "3-4", "4-5", "5-6", "5-7", *(f"{n}-4" for n in extra)]
        args.update(
            n_nodes=8 + len(extra),
            links=",".join(links),
            link_delay=setup["topology"]["bottleneck_delay_ms"] / 1000,
        )
        args.update(tally.parser_vars(setup["trace_level"]))
        return args


class Ns3(OnBlock):
    """ns3/dumbbell.cc: writes the ns-2 text trace (trace_level full), read by the same parser,
    or counts the same metrics in-process (tally), read by the same tally parser."""

    untraced = NS3_UNTRACED
    template = "dumbbell"
    parser = PARSER
    tally_parser = TALLY_PARSER
    stream = STREAM

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """The ns-3 program's arguments (studies/dumbbell/ns3.py)."""
        from bufrepro.studies.dumbbell import ns3

        return ns3.arguments(setup, point, self.parse_args(setup, point))

    def parse_args(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """dumbbell.awk's variables for the ns-3 program's stream (its text trace or tally)."""
        from bufrepro.studies.dumbbell import ns3

        return ns3.parse_args(setup, point, NS2.parse_args({**setup, "trace_level": "full"}, point))

    def check(self, setup: Block) -> list[str]:
        """What the ns-3 program cannot run (HTTP, a buffer of fewer than 2 waiting packets)."""
        from bufrepro.studies.dumbbell import ns3

        return ns3.problems("dumbbell", setup)


NS2 = Ns2()
DECLARATIONS: Mapping[str, Declaration[Block]] = MappingProxyType({"ns2": NS2, "ns3": Ns3()})
