"""No hand-written count or time on a user page: a number next to "runs", "seeds", "s", "min",
"h" or "CPU s" carries a computed marker (`<!-- n: KEY -->`, test_docs_numbers.py), a run-cost
marker (`<!-- t: KEY -->`, test_docs_times.py) or stands in the small allow-list below, each
entry with its reason. A heuristic: it reads prose only (no fenced block, no inline code), and
what it cannot tell apart (an input such as "a 20 s run") goes into the allow-list by name.

Pages under PENDING are not read yet: their figures are being moved behind markers by another
change, and each joins when it is done. docs/run-cost.md is the one place where measurements
are written out, each dated in its row or section, and is not read either.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docs_markup import REPO, pages, prose, rel
from figures_markup import TIMED

NUMBER = r"\d(?:[\d,.]*\d)?"
DASH = "[-\u2013]"  # a range: hyphen or en dash
UNITS = r"(?:CPU s|runs?|seeds?|min|s|h)\b"
BARE = re.compile(rf"(?<![\w.,+-]){NUMBER}(?:{DASH}{NUMBER})?[\s-]?{UNITS}")
MARKED_NUMBER = re.compile(r"\d[\d,]*\**\s*<!-- n: [\w.:-]+ -->")
FENCE = re.compile(r"^\s*(```+|~~~+).*?^\s*\1\s*$", re.S | re.M)
CODE = re.compile(r"(`+)(.+?)\1", re.S)

NOT_READ = {"docs/run-cost.md": "the measurements' own page: each figure dated in its row"}
PENDING = {
    "docs/ns3.md",
    "docs/readings.md",
    "docs/today-queues.md",
    "docs/studies/dumbbell.md",
    "docs/studies/hstcp.md",
    "docs/studies/ramya.md",
    "docs/studies/vegas.md",
}
# (page, the figure's words as the page writes them): why it is no measurement or pipeline count.
ALLOWED = {
    ("docs/getting-started.md", "one line per 30 s"): "the progress line's interval, a setting",
    ("docs/glossary.md", "fewer than 2 seeds a side"): "an interval needs two values: arithmetic",
    ("docs/own-link.md", "max(2 s"): "advise's documented default (--help), an input",
    ("docs/own-link.md", "max(10 s"): "advise's documented default (--help), an input",
    ("docs/own-link.md", "that is 833 s"): "the default formula worked for one link, arithmetic",
    ("docs/own-link.md", "2 seeds on ns-3"): "an example's input: the experiment as asked",
    ("docs/own-link.md", "a 20 s, 4-flow"): "an example's input: the run as asked",
    ("docs/own-link.md", "with 2 seeds"): "an example's input: the experiment as asked",
    ("docs/own-link.md", "; 4 seeds, the default"): "advise's default seeds, an input",
    ("docs/own-link.md", "DropTail, 4 seeds"): "advise's default seeds, an input",
    ("docs/own-link.md", "64 runs instead of 80"): "the search's runs on that link, printed",
    ("docs/own-link.md", "min RTO 0.2 s"): "one of the link's ns-3 mappings (ns3.yaml), an input",
    ("docs/own-link.md", "about 3 s of start-up"): "the --no-run cost model's constant",
    ("docs/own-link.md", "are 12 s and 60 s"): "the benchmark's goals, not measurements",
}


def read(path: Path) -> str:
    """A page's prose as this check reads it: no fenced blocks (indented ones too), no inline
    code, and no number or figure that carries its marker."""
    text = CODE.sub("``", FENCE.sub("", prose(path)))
    return " ".join(MARKED_NUMBER.sub("#", TIMED.sub("#", text)).split())


def bare(page: str, text: str) -> list[str]:
    """Each unmarked count or time of a page's text that the allow-list does not name."""
    allowed = [words for p, words in ALLOWED if p == page]
    spans = [
        (m.start(), m.end(), text[max(0, m.start() - 30) : m.end() + 20])
        for m in BARE.finditer(text)
    ]
    kept = []
    for start, end, context in spans:
        near = text[max(0, start - 40) : end + 40]
        if not any(w in near and text[start:end] in w for w in allowed):
            kept.append(context)
    return kept


CHECKED = [p for p in pages() if rel(p) not in PENDING and rel(p) not in NOT_READ]


@pytest.mark.parametrize("page", CHECKED, ids=rel)
def test_a_page_writes_no_bare_count_or_time(page: Path) -> None:
    assert bare(rel(page), read(page)) == [], (
        "mark it (<!-- n: KEY --> or <!-- t: KEY -->), link to run cost's current row instead, "
        "or add it to ALLOWED with a reason"
    )


def test_every_allowance_is_still_used() -> None:
    for page, words in ALLOWED:
        assert words in read(REPO / page), f"{page}: {words!r} is no longer written; drop it"


def test_the_check_catches_and_spares() -> None:
    assert len(bare("x.md", "the quick profile's 781 runs took 4 min 51 s")) == 3
    marked = "781 <!-- n: runs.quick --> runs took **4 min 51 s** <!-- t: quick.wall -->"
    assert bare("x.md", MARKED_NUMBER.sub("#", TIMED.sub("#", marked))) == []
    assert bare("x.md", "RFC 8290, ns-3.37, a 1e5 rate, load 2.2") == []
