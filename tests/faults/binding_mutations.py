"""The binding corpus: mishaps a careful user makes, >= 20 per class and stream format, as bytes.

Classes (each a dict name -> function of the stream's lines, header first, end line last):
- CUT: cut at a line boundary and given an end line back (the original one, a bare "# end").
- cuts_resealed: every line from some time on gone and the end line recomputed (a forger, or a
  scenario stopped early): the parser's check that the stream reaches t_end must catch it.
- EDIT: one line edited, the end line as ns wrote it (the checksum must catch it).
- RESEALED: one line edited and the end line recomputed, as a forger or a buggy tool would:
  the field types and each packet's story must catch it (text traces and side files).
- DELETE: receipts or drops deleted, resealed (conservation within the path's transit).
- SPLICE: another run's lines under this run's header (whole body, or from some line on).
"""

from __future__ import annotations

from collections.abc import Callable

from bufrepro.backends.streamsum import end_line

Lines = list[bytes]  # without newlines
Mutation = Callable[[Lines], Lines]


def reseal(ls: Lines) -> Lines:
    """The lines before the end line, followed by their correct end line."""
    body = ls[:-1] if ls and ls[-1].startswith(b"# end") else ls
    return [*body, end_line(body)]


def spread(n: int, count: int, lo: float = 0.1, hi: float = 0.9) -> list[int]:
    """`count` distinct indexes spread over [lo, hi] of n lines (at least line 1)."""
    out = sorted({max(1, int(n * (lo + (hi - lo) * i / max(1, count - 1)))) for i in range(count)})
    return out


# --- CUT -----------------------------------------------------------------------------------------


def cut(at: float, end: str) -> Mutation:
    def m(ls: Lines) -> Lines:
        k = max(2, int((len(ls) - 1) * at))
        tail = {"original": ls[-1], "bare": b"# end", "count": b"# end %d 0" % k}[end]
        return [*ls[:k], tail]

    return m


CUT: dict[str, Mutation] = {
    f"cut_{int(at * 100):02d}pct_{end}_end": cut(at, end)
    for i, at in enumerate([0.05 * j for j in range(1, 20)] + [0.97, 0.99])
    for end in (("original", "bare", "count")[i % 3],)
}


def _time(line: bytes) -> float | None:
    """A line's time: wired, hstcp and side lines $2 (ramya's queue and ping logs $1), wireless
    "-t" lines $3; None for a line without one."""
    f = line.split()
    if len(f) > 2 and f[1] == b"-t":
        return float(f[2])
    for x in f[1:2] if f and not f[0][:1].isdigit() else f[:1]:
        try:
            return float(x)
        except ValueError:
            return None
    return None


def cut_before(t: float) -> Mutation:
    """Every line at or after time t gone, the rest resealed: a stream stopped early."""

    def m(ls: Lines) -> Lines:
        body = ls[:-1] if ls[-1].startswith(b"# end") else ls
        keep = [x for x in body[1:] if (tm := _time(x)) is not None and tm < t]
        return reseal([body[0], *keep])

    return m


def cuts_resealed(t_end: float, horizon: float) -> dict[str, Mutation]:
    """22 streams stopped early and resealed, at times spread over [5 %, 95 %] of the part of
    the run that must be covered, [0, t_end - horizon] (horizon: the path's longest transit, or
    for a file checked by its own event gaps, 1 s of a tiny run)."""
    last = t_end - horizon
    return {f"cut_at_{i:02d}_resealed": cut_before(last * (0.05 + 0.9 * i / 21)) for i in range(22)}


# --- EDIT / RESEALED: one line --------------------------------------------------------------------


def edit_line(
    pick: Callable[[Lines], int], change: Callable[[list[bytes]], list[bytes]]
) -> Mutation:
    def m(ls: Lines) -> Lines:
        out = list(ls)
        i = pick(out)
        if b"\t" in out[i]:  # a tally line's fields are tab-separated
            out[i] = b"\t".join(change(out[i].split(b"\t")))
        else:  # blanks (the rtt trace pads its fields): single spaces after the edit
            out[i] = b" ".join(change(out[i].split()))
        assert out[i] != ls[i], (ls[i], out[i])
        return out

    return m


def resealed(m: Mutation) -> Mutation:
    return lambda ls: reseal(m(ls))


def body_at(frac: float) -> Callable[[Lines], int]:
    return lambda ls: max(1, min(len(ls) - 2, int((len(ls) - 1) * frac)))


def set_field(at: int, value: bytes) -> Callable[[list[bytes]], list[bytes]]:
    def change(f: list[bytes]) -> list[bytes]:
        g = list(f)
        g[at] = value if g[at] != value else value + b"0"
        return g

    return change


def bump_digit(at: int) -> Callable[[list[bytes]], list[bytes]]:
    """The last digit of field `at` changed (a number stays a number, the length stays)."""

    def change(f: list[bytes]) -> list[bytes]:
        g = list(f)
        s = bytearray(g[at])
        k = max(i for i, c in enumerate(s) if chr(c).isdigit())
        s[k] = ord("1") if s[k] != ord("1") else ord("2")
        g[at] = bytes(s)
        return g

    return change


def generic_edits() -> dict[str, Mutation]:
    """20 single-line edits, the end line as ns wrote it: one digit changed (the length and
    the kind of every field kept), or one field replaced by the word "big"; in lines spread
    over the stream, the field index varying with the line."""
    out: dict[str, Mutation] = {}
    for k, frac in enumerate([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]):
        out[f"digit_{k}_at{int(frac * 100)}"] = edit_line(body_at(frac), bump_digit_or_word(k))
        out[f"big_{k}_at{int(frac * 100)}"] = edit_line(body_at(frac), big_field(k))
    return out


def bump_digit_or_word(k: int) -> Callable[[list[bytes]], list[bytes]]:
    """A digit of the k-th field holding one (counting round the line), else a word extended."""

    def change(f: list[bytes]) -> list[bytes]:
        digits = [i for i, x in enumerate(f) if any(chr(c).isdigit() for c in x)]
        if digits:
            return bump_digit(digits[k % len(digits)])(f)
        g = list(f)
        g[k % len(g)] += b"x"
        return g

    return change


def big_field(k: int) -> Callable[[list[bytes]], list[bytes]]:
    return lambda f: set_field(k % len(f), b"big")(f)


# The wired text trace (ns-2's old format): $1 event, $2 time, $3 $4 link, $5 type, $6 size,
# $7 flags, $8 fid, $9 $10 addresses, $11 seq, $12 uid.
def wired_lines(ls: Lines, event: bytes, where: Callable[[list[bytes]], bool]) -> list[int]:
    return [
        i
        for i, x in enumerate(ls)
        if x[:1] == event and len(f := x.split()) == 12 and f[1] != b"-t" and where(f)
    ]


def sink_receipts(ls: Lines) -> list[int]:
    """'r' lines of data packets into the node of their destination address."""
    return wired_lines(ls, b"r", lambda f: f[4] != b"ack" and f[3] == f[9].split(b".")[0])


def nth(finder: Callable[[Lines], list[int]], frac: float) -> Callable[[Lines], int]:
    def pick(ls: Lines) -> int:
        idx = [i for i in finder(ls) if i < 0.85 * len(ls)]
        assert idx, "no such line"
        return idx[min(len(idx) - 1, int(len(idx) * frac))]

    return pick


def wired_edits() -> dict[str, Mutation]:
    """>= 20 single-line edits of a wired trace that change what the line means."""
    rx = sink_receipts
    plus = lambda ls: wired_lines(ls, b"+", lambda f: f[4] != b"ack")  # noqa: E731
    minus = lambda ls: wired_lines(ls, b"-", lambda f: True)  # noqa: E731
    out: dict[str, Mutation] = {}
    for frac in (0.1, 0.3, 0.5, 0.7, 0.9):
        p = int(frac * 100)
        out[f"sink_receipt_to_drop_{p}"] = edit_line(nth(rx, frac), set_field(0, b"d"))
        out[f"size_shrunk_{p}"] = edit_line(nth(rx, frac), set_field(5, b"1000"))
        out[f"size_big_{p}"] = edit_line(nth(plus, frac), set_field(5, b"big"))
        out[f"dequeue_to_receipt_{p}"] = edit_line(nth(minus, frac), set_field(0, b"r"))
    out["uid_changed"] = edit_line(nth(rx, 0.4), bump_digit(11))
    out["node_changed"] = edit_line(nth(plus, 0.4), set_field(3, b"0"))
    out["type_changed"] = edit_line(nth(rx, 0.6), set_field(4, b"cbr"))
    out["flow_not_a_number"] = edit_line(nth(rx, 0.2), set_field(7, b"x1"))
    out["seq_not_a_number"] = edit_line(nth(rx, 0.8), set_field(10, b"ten"))
    out["event_unknown"] = edit_line(nth(plus, 0.5), set_field(0, b"x"))
    return out


# --- DELETE (conservation), resealed --------------------------------------------------------------


def drops(ls: Lines) -> list[int]:
    return wired_lines(ls, b"d", lambda f: True)


def delete(finder: Callable[[Lines], list[int]], frac: float) -> Mutation:
    def m(ls: Lines) -> Lines:
        i = nth(finder, frac)(ls)
        return reseal([*ls[:i], *ls[i + 1 :]])

    return m


def delete_all(finder: Callable[[Lines], list[int]]) -> Mutation:
    def m(ls: Lines) -> Lines:
        gone = set(finder(ls))
        assert gone, "nothing to delete"
        return reseal([x for i, x in enumerate(ls) if i not in gone])

    return m


def deletions() -> dict[str, Mutation]:
    out: dict[str, Mutation] = {}
    for k in range(12):
        out[f"one_sink_receipt_deleted_{k}"] = delete(sink_receipts, k / 12)
    for k in range(8):
        out[f"one_drop_deleted_{k}"] = delete(drops, k / 8)
    out["every_drop_deleted"] = delete_all(drops)
    out["every_ack_receipt_deleted"] = delete_all(
        lambda ls: wired_lines(ls, b"r", lambda f: f[4] == b"ack")[:50]
    )
    return out


# --- SPLICE -------------------------------------------------------------------------------------


def splice(donor: Lines, at: float, end: str) -> Mutation:
    """This run's header and its lines up to `at`, then the donor's from there on, ending with
    the donor's end line, this run's, or a resealed one."""

    def m(ls: Lines) -> Lines:
        k = max(1, int((len(ls) - 1) * at))
        j = max(1, int((len(donor) - 1) * at))
        body = [*ls[:k], *donor[j:-1]]
        if end == "resealed":
            return reseal(body)
        return [*body, donor[-1] if end == "donor" else ls[-1]]

    return m


def splices(donors: dict[str, Lines]) -> dict[str, Mutation]:
    out: dict[str, Mutation] = {}
    for name, donor in donors.items():
        for at in (0.0, 0.25, 0.5, 0.75):
            for end in ("donor", "own"):
                out[f"{name}_from_{int(at * 100)}pct_{end}_end"] = splice(donor, at, end)
    return out


# --- RESEALED for vegas, tally streams and side files ---------------------------------------------

NOT_NUMBERS = (b"big", b"1.2.3", b"nan", b"inf", b"0x1f", b"--1", b"1e", b"+", b"one", b"1,5")


def not_numbers(fmt: str) -> dict[str, Mutation]:
    """20 lines each with one number a parser reads replaced by text that is not one (resealed
    by the caller): a tally stream's metric values; a side file's numeric fields it reads."""

    def numeric(f: list[bytes]) -> list[int]:
        if fmt.startswith("tally"):
            return [2] if f[0] == b"metric" and len(f) == 3 and f[2] else []
        if fmt == "side:rtt":  # the parser reads the time and the value (the rest: the sum)
            return [0, 6] if len(f) == 7 else []
        return [i for i, x in enumerate(f) if x and x[:1] in b"0123456789"]

    def finder(ls: Lines) -> list[int]:
        split = (lambda x: x.split(b"\t")) if fmt.startswith("tally") else bytes.split
        return [i for i, x in enumerate(ls[1:-1], 1) if numeric(split(x))]

    out: dict[str, Mutation] = {}
    for k in range(20):
        word = NOT_NUMBERS[k % len(NOT_NUMBERS)]

        def change(f: list[bytes], k: int = k, word: bytes = word) -> list[bytes]:
            at = numeric(f)
            return set_field(at[k % len(at)], word)(f)

        out[f"not_a_number_{k}_{word.decode()}"] = edit_line(nth_any(finder, k / 20), change)
    return out


def nth_any(finder: Callable[[Lines], list[int]], frac: float) -> Callable[[Lines], int]:
    def pick(ls: Lines) -> int:
        idx = finder(ls)
        assert idx, "no such line"
        return idx[min(len(idx) - 1, int(len(idx) * frac))]

    return pick


def vegas_edits() -> dict[str, Mutation]:
    """>= 20 single-line edits of vegas's text trace: a wired field not of its type, a receipt
    of a data packet at the mobile sink's agent turned into a drop (ns-2 never drops at the
    agent layer), a bottleneck receipt turned into a drop (the packet then travels on)."""
    wired = lambda ls: wired_lines(ls, b"+", lambda f: True)  # noqa: E731
    neck = lambda ls: wired_lines(ls, b"r", lambda f: f[4] == b"tcp" and f[2:4] == [b"1", b"2"])  # noqa: E731

    def agt_receipts(ls: Lines) -> list[int]:
        return [
            i
            for i, x in enumerate(ls)
            if x.startswith(b"r -t ") and b" -Nl AGT " in x and b" -It tcp " in x
        ]

    def drop_wireless(f: list[bytes]) -> list[bytes]:
        return [b"d", *f[1:]]

    out: dict[str, Mutation] = {}
    for at, word in ((2, b"x4"), (3, b"y"), (5, b"big"), (7, b"fid"), (10, b"ten"), (11, b"u1")):
        for frac in (0.3, 0.7):
            out[f"wired_field{at + 1}_{word.decode()}_{int(frac * 100)}"] = edit_line(
                nth(wired, frac), set_field(at, word)
            )
    out["wired_event_unknown"] = edit_line(nth(wired, 0.5), set_field(0, b"x"))
    for frac in (0.1, 0.3, 0.5, 0.7, 0.8):
        out[f"sink_receipt_to_drop_{int(frac * 100)}"] = edit_line(
            nth(agt_receipts, frac), drop_wireless
        )
    for frac in (0.2, 0.4, 0.6, 0.8):
        out[f"bottleneck_receipt_to_drop_{int(frac * 100)}"] = edit_line(
            nth(neck, frac), set_field(0, b"d")
        )
    return out
