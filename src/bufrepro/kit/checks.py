"""What a run left behind, checked before anything trusts it: metrics lines, bounds, run.json."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

# Parser variables that give the measured link's capacity in bit/s (wired/vegas, hstcp).
CAPACITY_ARGS = ("link_bps", "bps")
# Rates by unit suffix: the divisor from bit/s.
RATE_UNITS = {"_kbps": 1e3, "_mbps": 1e6}
# Rates that share the measured link: together at most its capacity.
SHARED_RATES = (re.compile(r"^(tcp|cbr)_throughput_kbps$"), re.compile(r"^flow\d+_tput_mbps$"))
# A run that reports the servers' data rate (the dumbbell's HTTP reading, awk/dumbbell/http.awk)
# sends its TCP data typed "ack" (ns-2's FullTcp server): there tcp_* describe the clients'
# requests and ACKs, which cross the link the other way, so the servers' rate shares it instead.
SHARED_RATES_HTTP = (re.compile(r"^(http|cbr)_throughput_kbps$"),)
COUNT = re.compile(
    r"((?<!_avg)_pkts|_samples|_drops_queue|_drops_link|_drops_total|_drops_wired|_drops_wireless)$"
    r"|^acct_(sent|received|dropped|in_flight|stranded)$"
    r"|^(drops|arrivals|departures|trace_lines|trace_drop_lines|ping_sent|ping_received)$"
)
FRACTION = re.compile(r"(_loss_rate|utilisation|^jain_index|_min_max_ratio)$")
PERCENT = re.compile(r"_pct$")
# Printed values are rounded to 6 decimals: a bound may be exceeded by half a unit of that.
ROUNDING = 1e-6
# run.json: what a finished run records, and its type.
RUN_RECORD: dict[str, type | tuple[type, ...]] = {
    "command": str,
    "exit_code": int,
    "finished_at_sim_s": (int, float),
    "key": str,
    "metrics_sha256": str,
    "parser": str,
    "parser_args": dict,
    "wall_s": (int, float),
}


class BadRunFiles(ValueError):
    """A run's metrics.tsv or run.json that cannot be trusted; the message names the file."""


def parse_metrics(text: str, where: str) -> dict[str, float | None]:
    """name -> value of "name<TAB>value" lines (None: an empty value, i.e. undefined).

    A line without a tab, a name given twice, a value that is not a finite number (or has
    spaces around it), a last line without its newline, or a NUL raises BadRunFiles naming
    `where` and the line.
    """
    if "\0" in text:
        raise BadRunFiles(f"{where}: a NUL byte: not a metrics file")
    if text and not text.endswith("\n"):
        raise BadRunFiles(f"{where}: the last line has no newline: cut short?")
    out: dict[str, float | None] = {}
    for lineno, line in enumerate(text[:-1].split("\n") if text else [], 1):
        name, sep, raw = line.partition("\t")
        if not sep or not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise BadRunFiles(f"{where}:{lineno}: expected 'name<TAB>value', got {line[:80]!r}")
        if name in out:
            raise BadRunFiles(f"{where}:{lineno}: metric {name} given twice")
        out[name] = _number(raw, f"{where}:{lineno}: {name}")
    return out


def _number(raw: str, what: str) -> float | None:
    if raw == "":
        return None
    if raw != raw.strip():
        raise BadRunFiles(f"{what}: {raw[:40]!r} has white space (a CR?) around the number")
    try:
        value = float(raw)
    except ValueError:
        raise BadRunFiles(f"{what}: {raw[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise BadRunFiles(f"{what}: {raw!r} is not finite")
    return value


def capacity_bps(parser_args: Mapping[str, Any]) -> float | None:
    """The measured link's capacity (bit/s) among a run's parser variables, if the study has one."""
    for name in CAPACITY_ARGS:
        if name in parser_args:
            return float(parser_args[name])
    return None


def metric_problems(
    values: Mapping[str, float | None], capacity: float | None, required: Iterable[str] = ()
) -> list[str]:
    """Each broken expectation of one run's metrics, naming the metric and the bound.

    acct_ok is 1; every required metric is present and defined; every value is >= 0; counts
    are whole; loss rates, utilisations and other fractions lie in [0, 1], percentages in
    [0, 100]; each rate (kb/s, Mb/s) and the sum of the rates sharing the measured link are
    at most its capacity (to the printed rounding).
    """
    problems = [] if values.get("acct_ok") == 1.0 else ["acct_ok is not 1"]
    problems += [f"{m} missing" for m in required if m not in values]
    problems += [f"{m} undefined (empty)" for m in required if m in values and values[m] is None]
    shared: dict[float, float] = {}
    sharing = SHARED_RATES_HTTP if "http_throughput_kbps" in values else SHARED_RATES
    for name, value in values.items():
        if value is None:
            continue
        problems += _bounds(name, value)
        for suffix, unit in RATE_UNITS.items():
            if capacity is not None and name.endswith(suffix):
                if value > capacity / unit + ROUNDING:
                    problems.append(f"{name} {value} above the capacity {capacity / unit:g}")
                if any(p.match(name) for p in sharing):
                    shared[unit] = shared.get(unit, 0.0) + value
    for unit, total in shared.items():
        if capacity is not None and total > capacity / unit + 2 * ROUNDING:
            problems.append(f"rates sharing the link sum to {total:g}, above {capacity / unit:g}")
    return problems + _queue_twins(values)


def _queue_twins(values: Mapping[str, float | None]) -> list[str]:
    """ramya's queue samples (queue.tr: qmon_*) against the trace's own queue (link_*): a
    sample never exceeds the largest queue the trace shows in the window."""
    most = values.get("link_queue_max_pkts")
    if most is None:
        return []
    return [
        f"{name} {values[name]} above link_queue_max_pkts {most} (the trace's own queue)"
        for name in ("qmon_queue_max_pkts", "qmon_queue_avg_pkts")
        if (values.get(name) or 0.0) > most + ROUNDING
    ]


def _bounds(name: str, value: float) -> list[str]:
    if value < 0:
        return [f"{name} {value} is negative"]
    if COUNT.search(name) and value != int(value):
        return [f"{name} {value} is not a whole count"]
    if FRACTION.search(name) and value > 1 + ROUNDING:
        return [f"{name} {value} is above 1"]
    if PERCENT.search(name) and value > 100 + ROUNDING:
        return [f"{name} {value} is above 100"]
    return []


def record_problems(meta: Any) -> list[str]:
    """What is wrong with a run.json's content: every field present with its type, exit 0."""
    if not isinstance(meta, dict):
        return ["not a JSON object"]
    problems = []
    for name, kind in RUN_RECORD.items():
        if name not in meta:
            problems.append(f"{name} missing")
        elif not isinstance(meta[name], kind) or isinstance(meta[name], bool):
            problems.append(f"{name} is {type(meta[name]).__name__}")
    if not problems and meta["exit_code"] != 0:
        problems.append(f"exit_code {meta['exit_code']}")
    if not problems and not re.fullmatch(r"[0-9a-f]{64}", meta["key"]):
        problems.append("key is not a sha256 digest")
    if not problems and not re.fullmatch(r"[0-9a-f]{64}", meta["metrics_sha256"]):
        problems.append("metrics_sha256 is not a sha256 digest")
    if not problems and not (
        math.isfinite(meta["finished_at_sim_s"]) and math.isfinite(meta["wall_s"])
    ):
        problems.append("a time is not finite")
    return problems


def metrics_digest(data: bytes) -> str:
    """The sha256 of a metrics.tsv's bytes, as run.json records it (metrics_sha256)."""
    return hashlib.sha256(data).hexdigest()
