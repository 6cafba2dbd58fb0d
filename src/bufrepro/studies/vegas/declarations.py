"""The vegas study's runs on the patched ns-2: its template, parser and kept series."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bufrepro.kit.declaration import Block, Declaration, OnBlock
from bufrepro.kit.grid import RunPoint
from bufrepro.studies.vegas import params


class Ns2(OnBlock):
    """tcl/vegas on the patched ns-2 (ns2/patches/0002, spacing_)."""

    template = "vegas/vegas.tcl.j2"
    parser = "vegas/vegas.awk"
    kept_files = (params.SERIES_FILE,)
    options = MappingProxyType({"build": "patched"})

    def params(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Template variables of one run."""
        return params.params(setup, point)

    def parse_args(self, setup: Block, point: RunPoint) -> dict[str, Any]:
        """Parser variables: window, accounting limit, the flow's ends, the bottleneck, series,
        the scenario's fingerprint (its wired links, node count, bottleneck delay) and, at
        trace_level tally, the switch to MixedTally's stream."""
        return params.parse_args(setup, point)


DECLARATIONS: Mapping[str, Declaration[Block]] = MappingProxyType({"ns2": Ns2()})
