"""The in-ns tallies (trace_level "tally"): their template variables and parser variables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# trace_level values of the wired studies: "full" writes ns-2's text trace (wired.awk reads it,
# the reference); "tally" has the patched ns-2 count the same metrics (WiredTally) and write a
# small stream that lib/tally.awk reads.
LEVELS = ("full", "tally")
# The parser variables WiredTally counts with: the same text reaches ns (the template's
# `$tally param` lines) and the parser (-v), which checks the stream's copy against its own.
PARAMS = (
    "t0",
    "t1",
    "t_end",
    "max_age",
    "link_from",
    "link_to",
    "link_bps",
    "link_delay",
    "tcp_hdr",
)


# The parser variables MixedTally (ns2/patches/0004: vegas.awk's metrics of a wired-cum-wireless
# run, counted in ns) counts with.
MIXED_PARAMS = (
    "t0",
    "t1",
    "t_end",
    "max_age",
    "src",
    "dst",
    "fid",
    "hdr",
    "traced",
    "link_from",
    "link_to",
    "link_bps",
    "bin_s",
    "link_delay",
)


def template_vars(
    level: str, parser_args: Mapping[str, Any], names: tuple[str, ...] = PARAMS
) -> dict[str, Any]:
    """trace_level and, for "tally", the (name, text) pairs of `names` the scenario gives its
    tally (WiredTally's PARAMS by default; MIXED_PARAMS for MixedTally)."""
    if level not in LEVELS:
        raise ValueError(f"trace_level {level!r}; allowed: {', '.join(LEVELS)}")
    pairs = [(k, str(parser_args[k])) for k in names if k in parser_args]
    return {"trace_level": level, "tally_params": pairs if level == "tally" else []}


def parser_vars(level: str) -> dict[str, Any]:
    """The parser's switch to the tally stream ({"tally": 1}), nothing for the text trace."""
    return {"tally": 1} if level == "tally" else {}


def needs_patched(params: Mapping[str, Any]) -> bool:
    """True for a scenario that writes a parsed stream: WiredTally, and StreamSum (the end line
    "# end LINES SUM" of the text trace and the side files), exist only in the patched build."""
    return params.get("trace_level") in LEVELS
