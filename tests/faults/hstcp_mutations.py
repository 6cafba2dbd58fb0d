"""The binding corpus's resealed edits of hstcp's counter stream (ns-2's and ns-3's): one line
edited, or deleted, and the end line recomputed, as a forger or a buggy tool would; the field
types and the counters' equations must catch each (>= 20 per class).

The stream: the header, the M line, Q samples ("Q TIME ARR DEP DROP BARR BDEP QLEN INTEGRAL" and
one "fid:arr:dep:drop:ack:cwnd" per flow), 'd' lines of the bottleneck's drops (ns-2's trace
format), the E line, the end line.
"""

from __future__ import annotations

from collections.abc import Callable

from binding_mutations import Lines, Mutation, edit_line, nth_any, reseal, set_field

NOT_NUMBERS = (b"big", b"1.2.3", b"nan", b"inf", b"0x1f", b"--1", b"1e", b"+", b"one", b"1,5")


def q_lines(ls: Lines) -> list[int]:
    return [i for i, x in enumerate(ls) if x.startswith(b"Q ")]


def d_lines(ls: Lines) -> list[int]:
    return [i for i, x in enumerate(ls) if x.startswith(b"d ")]


def last_q(ls: Lines) -> list[int]:
    return q_lines(ls)[-1:]


def plus_one(at: int) -> Callable[[list[bytes]], list[bytes]]:
    """Field `at`, an integer, one more (a count still a count)."""
    return lambda f: set_field(at, b"%d" % (int(f[at]) + 1))(f)


def flow_part(k: int, value: bytes) -> Callable[[list[bytes]], list[bytes]]:
    """One part of the first flow field (fid:arr:dep:drop:ack:cwnd) replaced by value."""

    def change(f: list[bytes]) -> list[bytes]:
        parts = f[9].split(b":")
        parts[k] = value if parts[k] != value else value + b"0"
        return set_field(9, b":".join(parts))(f)

    return change


def resealed(m: Mutation) -> Mutation:
    return lambda ls: reseal(m(ls))


def edits() -> dict[str, Mutation]:
    """>= 20 single-line edits, resealed: a counter, the integral or a flow field not a number
    (types where read), a drop line's field not of its type, and counts that break an equation
    (conservation at the end, drop lines = the drop counter, per flow too)."""
    out: dict[str, Mutation] = {}
    for k in range(10):
        word = NOT_NUMBERS[k]
        at = 2 + k % 7  # ARR .. INTEGRAL
        out[f"q_field{at + 1}_{word.decode()}_{k}"] = edit_line(
            nth_any(q_lines, k / 10), set_field(at, word)
        )
    for k, word in enumerate((b"big", b"x", b"1.5", b"-")):
        out[f"flow_part{k + 1}_{word.decode()}"] = edit_line(
            nth_any(q_lines, 0.3 + k / 10), flow_part(1 + k, word)
        )
    for at, word in ((5, b"big"), (7, b"x1"), (11, b"u1"), (6, b"123"), (2, b"n0")):
        out[f"drop_field{at + 1}_{word.decode()}"] = edit_line(
            nth_any(d_lines, at / 12), set_field(at, word)
        )
    out["last_sample_arrivals_plus_one"] = edit_line(nth_any(last_q, 0), plus_one(2))
    out["last_sample_drops_plus_one"] = edit_line(nth_any(last_q, 0), plus_one(4))
    out["drop_of_another_flow"] = edit_line(nth_any(d_lines, 0.5), _other_flow)
    return {k: resealed(m) for k, m in out.items()}


def _other_flow(f: list[bytes]) -> list[bytes]:
    return set_field(7, b"%d" % ((int(f[7]) + 1) % 4))(f)


def delete(finder: Callable[[Lines], list[int]], frac: float) -> Mutation:
    def m(ls: Lines) -> Lines:
        i = nth_any(finder, frac)(ls)
        return reseal([*ls[:i], *ls[i + 1 :]])

    return m


def deletions() -> dict[str, Mutation]:
    """>= 20 lines deleted, resealed: a drop line (the drop counter then differs), every drop
    line, the last sample (the stream then ends before t_end), the E line."""
    out: dict[str, Mutation] = {f"one_drop_deleted_{k}": delete(d_lines, k / 18) for k in range(18)}
    out["every_drop_deleted"] = lambda ls: reseal([x for x in ls if not x.startswith(b"d ")])
    out["last_sample_deleted"] = delete(last_q, 0)
    out["e_line_deleted"] = delete(lambda ls: [i for i, x in enumerate(ls) if x[:2] == b"E "], 0)
    return out


def _scaled(text: bytes, factor: float) -> bytes:
    """An integer counter times factor, rounded down; a number (the integral) times factor."""
    if b"." in text or b"e" in text:
        return b"%.6f" % (float(text) * factor)
    return b"%d" % int(int(text) * factor)


def scale(
    fields: tuple[int, ...], factor: float, flows: tuple[int, ...] = ()
) -> Callable[[list[bytes]], list[bytes]]:
    """A Q line's fields (0-based) scaled, and parts (1-based: arr dep drop ack) of every flow
    field: a counter rescaled whole, the sample still of its form."""

    def change(f: list[bytes]) -> list[bytes]:
        g = list(f)
        for at in fields:
            g[at] = _scaled(g[at], factor)
        for at in range(9, len(g)):
            parts = g[at].split(b":")
            for k in flows:
                parts[k] = _scaled(parts[k], factor)
            g[at] = b":".join(parts)
        return g

    return change


# Rescalings of one sample's counters: a counter alone, a counter with its byte twin, the
# aggregate whole (arrivals = departures + drops + queue kept), every counter with the flows'
# (each sample's own equations kept: only its neighbours' cumulative sums and the link's
# capacity can tell). The queue integral is not here: rescaled within (buffer + 1) x the
# interval and never decreasing, it stays undetectable without re-simulation
# (docs/trusting-a-run.md).
RESCALES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "departures": ((3,), ()),
    "departures_and_bytes": ((3, 6), ()),
    "aggregate": ((2, 3, 4, 5, 6, 7), ()),
    "every_counter": ((2, 3, 4, 5, 6, 7), (1, 2, 3, 4)),
}


def rescaled() -> dict[str, Mutation]:
    """>= 20 resealed rescalings of hstcp's counters (RESCALES x 5 factors, at samples from the
    window's middle to its end, the sample at t1 included): the "counters rescaled" edit the
    issue 42 audit found silent."""
    out: dict[str, Mutation] = {}
    for k, factor in enumerate((1.1, 1.5, 2.0, 0.9, 0.5)):
        for name, (fields, flows) in RESCALES.items():
            where = (0.5, 0.7, 0.9, 1.0, 0.6)[k]
            out[f"{name}_x{factor}_at{where}"] = resealed(
                edit_line(nth_any(q_lines, where), scale(fields, factor, flows))
            )
    return out
