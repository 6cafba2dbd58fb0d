"""Quantities in the units a user types (10Mbit, 40ms, 1%, 64KB, 0.5bdp), checked, with hints."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

NUMBER = r"([0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)"
# Each kind: its units and their factor to the base unit (bit/s, s, bytes, fraction).
RATE_UNITS: Mapping[str, float] = {"bit": 1.0, "kbit": 1e3, "Mbit": 1e6, "Gbit": 1e9}
TIME_UNITS: Mapping[str, float] = {"s": 1.0, "ms": 1e-3, "us": 1e-6}
BYTE_UNITS: Mapping[str, float] = {"B": 1.0, "KB": 1e3, "MB": 1e6, "KiB": 1024.0, "MiB": 1048576.0}
# A buffer: packets, bytes, drain time at the link's rate, or multiples of the BDP.
BUFFER_UNITS = ("pkt", *BYTE_UNITS, *TIME_UNITS, "bdp")
# What people type for a rate that is not a unit here, and what they most likely meant.
RATE_SLIPS: Mapping[str, str] = {
    "mb": "Mbit",
    "mbps": "Mbit",
    "mbit/s": "Mbit",
    "m": "Mbit",
    "kb": "kbit",
    "kbps": "kbit",
    "k": "kbit",
    "gb": "Gbit",
    "gbps": "Gbit",
    "g": "Gbit",
    "bps": "bit",
}


class UnitError(ValueError):
    """A quantity that cannot be read; the message names the flag or key and what is allowed."""


def _split(text: str, where: str) -> tuple[float, str]:
    match = re.fullmatch(NUMBER + r"\s*([A-Za-z%/]*)", str(text).strip())
    if match is None:
        if str(text).strip().startswith("-"):
            raise UnitError(f"{where}: {text!r} is negative; it must be above 0")
        raise UnitError(f"{where}: {text!r} is not a number with a unit")
    return float(match.group(1)), match.group(2)


def hint(word: str, allowed: Iterable[str], slips: Mapping[str, str] | None = None) -> str:
    """' (did you mean X?)' for a near-miss of an allowed word, else ''."""
    options = list(allowed)
    if slips and word.lower() in slips:
        return f" (did you mean {slips[word.lower()]}?)"
    lower = {o.lower(): o for o in options}
    if word.lower() in lower:
        return f" (did you mean {lower[word.lower()]}?)"
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _unit(value: float, unit: str, units: Mapping[str, float], where: str, text: str) -> float:
    if unit not in units:
        allowed = ", ".join(units)
        if not unit:
            raise UnitError(f"{where}: {text!r} has no unit; allowed units: {allowed}")
        raise UnitError(
            f"{where}: unknown unit {unit!r} in {text!r}{hint(unit, units, RATE_SLIPS)}; "
            f"allowed units: {allowed}"
        )
    return value * units[unit]


def rate_bps(text: str, where: str) -> float:
    """A rate such as 10Mbit or 1Gbit, in bit/s (above 0)."""
    value, unit = _split(text, where)
    if value <= 0:
        raise UnitError(f"{where}: {text!r} must be above 0, with a unit (e.g. 10Mbit)")
    bps = _unit(value, unit, RATE_UNITS, where, text)
    if bps <= 0:
        raise UnitError(f"{where}: {text!r} must be above 0")
    return bps


def seconds(text: str, where: str, allow_zero: bool = False) -> float:
    """A time such as 40ms or 2s, in seconds (above 0, or at least 0 with allow_zero)."""
    value, unit = _split(text, where)
    out = _unit(value, unit, TIME_UNITS, where, text)
    if out < 0 or (out == 0 and not allow_zero):
        raise UnitError(f"{where}: {text!r} must be above 0")
    return out


def fraction(
    text: str | float, where: str, below_one: bool = True, what: str = "a fraction"
) -> float:
    """A fraction given as 1% or 0.01, in [0, 1) (or [0, 1] when below_one is false); `what`
    names it in the error (a loss rate, the utilisation margin)."""
    raw = str(text).strip()
    match = re.fullmatch(NUMBER + r"\s*(%?)", raw)
    if match is None:
        if raw.startswith("-"):
            raise UnitError(f"{where}: {text!r} is negative; allowed: 0 <= x < 1 (or 0% to 99%)")
        raise UnitError(f"{where}: {text!r} is not a fraction; allowed: 0.01 or 1%")
    value = float(match.group(1)) / (100.0 if match.group(2) else 1.0)
    if (value >= 1 and below_one) or value > 1:
        raise UnitError(f"{where}: {text!r} is {value:g}; {what} must be below 1 (e.g. 1% or 0.01)")
    return value


def buffer_text(text: str, where: str) -> tuple[float, str]:
    """A buffer such as 20pkt, 64KB, 5ms or 0.5bdp: (value, unit), unit in BUFFER_UNITS."""
    value, unit = _split(text, where)
    if unit not in BUFFER_UNITS:
        allowed = ", ".join(BUFFER_UNITS)
        missing = "has no unit" if not unit else f"has unit {unit!r}{hint(unit, BUFFER_UNITS)}"
        raise UnitError(f"{where}: {text!r} {missing}; allowed units: {allowed}")
    if value <= 0:
        raise UnitError(f"{where}: {text!r} must be above 0")
    return value, unit


def buffer_pkts(text: str, where: str, packet_bytes: int, bdp_pkts: float, bps: float) -> float:
    """A buffer in packets of packet_bytes: from packets, bytes, drain time or BDP multiples."""
    value, unit = buffer_text(text, where)
    if unit == "pkt":
        return value
    if unit == "bdp":
        return value * bdp_pkts
    if unit in TIME_UNITS:
        return value * TIME_UNITS[unit] * bps / 8 / packet_bytes
    return value * BYTE_UNITS[unit] / packet_bytes


def choice(word: str, allowed: Iterable[str], where: str) -> str:
    """`word` if allowed (matched without case), else UnitError naming the allowed words."""
    options = list(allowed)
    exact = {o.lower(): o for o in options}
    if word.lower() in exact:
        return exact[word.lower()]
    raise UnitError(
        f"{where}: unknown {word!r}{hint(word, options)}; allowed: {', '.join(options)}"
    )
