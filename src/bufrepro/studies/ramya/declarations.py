"""The ramya study's runs on ns-2: its template, stream, side files and parsers."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bufrepro.backends import tally
from bufrepro.kit.declaration import Block, Declaration, OnBlock
from bufrepro.kit.grid import RunPoint
from bufrepro.studies.ramya import params


class Ns2(OnBlock):
    """tcl/ramya: the trace (out.tr) streams into ramya.awk; the TCP agent's RTT samples, the
    ping log and the QueueMonitor samples go to side.awk after the run; queue.tr stays for
    Fig. 3."""

    template = "ramya/ramya.tcl.j2"
    parser = "ramya/ramya.awk"
    stream = params.STREAM
    tally_parser = "ramya/ramya_tally.awk"
    side_parser = "ramya/side.awk"
    side_files = (params.RTT_FILE, params.PING_FILE, params.QUEUE_FILE)
    kept_files = (params.QUEUE_FILE,)
    # trace_level tally counts in the patched ns (built first); full runs Debian's ns.
    options = MappingProxyType({"build": "tally"})

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Template variables of one run (trace_level "none" is the benchmark's ns alone)."""
        made = params.params(setup, point)
        made.update(tally.template_vars(setup["trace_level"], self.parse_args(setup, point)))
        return made

    def parse_args(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """The setup's window, accounting limits, the R1 -> R2 link, the scenario's fingerprint."""
        args = params.parse_args(setup, point)
        # client 0, R1 1, R2 2, server 3, ping client 4, ping server 5 (tcl/ramya).
        delay_ms = params.params(setup, point)["bottleneck_delay_ms"]
        args.update(n_nodes=6, links="0-1,1-2,2-3,4-1,2-5", link_delay=delay_ms / 1000)
        args.update(tally.parser_vars(setup["trace_level"]))
        return args


DECLARATIONS: Mapping[str, Declaration[Block]] = MappingProxyType({"ns2": Ns2()})
