"""The pages quote a reproduction, not a memory: every verdict and count they mark is the one in
the committed summary (docs/data/<profile>-summary.json, written by `bufrepro docs-summary`), and
every page that quotes one names it (profile, date, commit).

Markup: `<!-- quotes: PROFILE -->` ends the sentence naming the reproduction; `"TEXT"<!-- v: KEY
-->` quotes the summary's string at KEY (dotted, under "studies"; TEXT may stop early and end
"..."); `N <!-- s: KEY -->` is the summary's number at KEY. A readings verdict's words ("reproduces
under", "no reading reproduces", ...) anywhere else on these pages are a page stating a verdict
the summary may not contain: the test fails. A new study's page, until a reproduction has run it,
says `<!-- quotes: nothing yet -->` instead; only a study no committed summary holds may."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from docs_markup import REPO, rel

DATA = REPO / "docs" / "data"
PAGES = ("ns3.md", "today-queues.md", "readings.md")
QUOTING = sorted([*(REPO / "docs" / "studies").glob("*.md"), *(REPO / "docs" / p for p in PAGES)])
QUOTES = re.compile(r"<!-- quotes: ([\w-]+) -->")
VERDICT = re.compile(r"\"([^\"]+)\"\s*<!-- v: (.+?) -->")
NUMBER = re.compile(r"([0-9][0-9,]*)\s*<!-- s: (.+?) -->")
# A readings verdict in words: a page may state one only as a marked quote of the summary.
VERDICT_WORDS = re.compile(
    r"reproduces under|no reading (?:in the declared space )?reproduces"
    r"|none of the \d+ readings tried reproduces",
    re.I,
)
# A new study's page until a reproduction has run it: it quotes nothing, and says so.
NOT_YET = "<!-- quotes: nothing yet -->"
# Where the verdicts' forms are described, not stated: marked quotes are checked, words are not.
DESCRIBES = ("readings.md",)


@cache
def summary(profile: str) -> dict[str, Any]:
    """The committed summary of a profile's reproduction."""
    return dict(json.loads((DATA / f"{profile}-summary.json").read_text(encoding="utf-8")))


def lookup(data: dict[str, Any], key: str) -> Any:
    """The value at a dotted key under "studies" (a part may hold dots or slashes: the longest
    existing name wins)."""
    node: Any = data["studies"]
    parts = key.split(".")
    while parts:
        for n in range(len(parts), 0, -1):
            name = ".".join(parts[:n])
            if isinstance(node, dict) and name in node:
                node, parts = node[name], parts[n:]
                break
        else:
            raise KeyError(key)
    return node


def sections(text: str) -> list[tuple[str, str, str]]:
    """(profile, its quotes line, the text it governs) per `<!-- quotes: PROFILE -->` line: each
    governs the text from its line to the next such line, the first also the text before it."""
    lines = [m for m in re.finditer(r"^.*<!-- quotes: ([\w-]+) -->.*$", text, re.M)]
    starts = [0] + [m.start() for m in lines[1:]] + [len(text)]
    return [(m[1], m[0], text[starts[i] : starts[i + 1]]) for i, m in enumerate(lines)]


def quoted(data: dict[str, Any], part: str) -> list[str]:
    """What a part of a page quotes of its summary that the summary does not hold."""
    out = []
    for said, key in VERDICT.findall(part):
        want = str(lookup(data, key))
        head = said.removesuffix("...")
        if not (want == said or (said.endswith("...") and head and want.startswith(head))):
            out.append(f"{key}: page says {said!r}, the summary {want!r}")
    for number, key in NUMBER.findall(part):
        if int(number.replace(",", "")) != int(lookup(data, key)):
            out.append(f"{key}: page says {number}, the summary {lookup(data, key)}")
    return out


def problems(text: str, describes: bool = False) -> list[str]:
    """What a page states that its summaries do not: wrong quotes, wrong numbers, unmarked
    verdicts, a missing or wrong reproduction line. A page may quote several profiles' runs,
    each after the sentence naming it."""
    if not QUOTES.search(text):
        return ["no <!-- quotes: PROFILE --> line"] if VERDICT.search(text) else []
    out = []
    for profile, line, part in sections(text):
        data = summary(profile)
        repro = data["reproduction"]
        block = text[max(0, text.find(line) - 300) : text.find(line) + len(line)]
        out += [
            f"{profile} reproduction {k} {repro[k]} not named"
            for k in ("date", "commit")
            if repro[k] not in block
        ]
        out += quoted(data, part)
    if describes:
        return out
    bare = VERDICT.sub("", text)
    out += [
        f"unquoted verdict: ...{bare[m.start() - 40 : m.end() + 40]!r}"
        for m in VERDICT_WORDS.finditer(bare)
    ]
    return out


@pytest.mark.parametrize("page", QUOTING, ids=rel)
def test_a_page_states_only_what_its_summary_holds(page: Path) -> None:
    assert problems(page.read_text(encoding="utf-8"), page.name in DESCRIBES) == []


def unquoted(text: str, study: str) -> bool:
    """Whether a study page says it quotes no reproduction (NOT_YET) of a study that no
    committed summary holds: a new study's, until a reproduction has run it."""
    held = {
        s
        for p in DATA.glob("*-summary.json")
        for s in summary(p.stem[: -len("-summary")])["studies"]
    }
    return NOT_YET in text and study not in held


def test_every_study_page_quotes_a_reproduction() -> None:
    for page in (REPO / "docs" / "studies").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        if unquoted(text, page.stem):
            continue
        assert QUOTES.search(text), rel(page)
        assert VERDICT.search(text), rel(page)  # its readings verdict, at least


def test_only_a_study_no_summary_holds_may_quote_nothing() -> None:
    page = (REPO / "docs" / "studies" / "dumbbell.md").read_text(encoding="utf-8")
    assert not unquoted(page + NOT_YET, "dumbbell")
    assert unquoted(NOT_YET, "no_such_study") and not unquoted("", "no_such_study")


def test_a_page_quotes_each_profile_after_the_sentence_naming_it() -> None:
    page = (REPO / "docs" / "ns3.md").read_text(encoding="utf-8")
    assert [p for p, _, _ in sections(page)] == ["default", "quick"]
    # A quote of the quick run moved under the default run's sentence is checked against that.
    quick = sections(page)[1][2]
    number, key = NUMBER.findall(quick)[0]
    moved = page.replace(quick, "", 1).replace(
        "## What the two simulators say",
        f"{number} <!-- s: {key} -->\n\n## What the two simulators say",
    )
    if int(lookup(summary("default"), key)) != int(number.replace(",", "")):
        assert any(p.startswith(f"{key}: page says") for p in problems(moved))


def test_a_doctored_page_fails() -> None:
    page = (REPO / "docs" / "studies" / "dumbbell.md").read_text(encoding="utf-8")
    quoted, key = VERDICT.findall(page)[0]
    # A verdict the summary does not contain, in place of the quoted one.
    doctored = page.replace(f'"{quoted}"', '"reproduces under the a-priori reading"', 1)
    assert any(p.startswith(f"{key}: page says") for p in problems(doctored))
    # The same verdict stated from memory, without the marker.
    assert any(
        p.startswith("unquoted verdict") for p in problems(page + "\nno reading reproduces it.\n")
    )
    # A count the run does not give.
    number, nkey = NUMBER.findall(page)[0]
    wrong = page.replace(
        f"{number} <!-- s: {nkey} -->", f"{int(number.replace(',', '')) + 1} <!-- s: {nkey} -->", 1
    )
    assert any(p.startswith(f"{nkey}: page says") for p in problems(wrong))
    # Another reproduction's date in place of the one the page quotes.
    date = summary(QUOTES.findall(page)[0])["reproduction"]["date"]
    assert any("not named" in p for p in problems(page.replace(date, "1999-01-01")))


def answered(profile: str) -> dict[str, Any]:
    """A profile's summary as docs-summary writes it now (the tree's provenance and each
    paper's answer); a summary written before the answers existed is skipped, naming the fix."""
    data = summary(profile)
    if "source" not in data["reproduction"]:
        pytest.skip(
            f"docs/data/{profile}-summary.json predates the answers: write it again from its "
            "finished tree with `python -m bufrepro.cli docs-summary`"
        )
    return data


@pytest.mark.parametrize("profile", ["quick", "default"])
def test_the_summary_is_what_the_command_writes(profile: str) -> None:
    # Its shape: the reproduction (the tree's own commit and date, and where they come from),
    # then per study the words of the summary, the counts and each paper's answer.
    data = summary(profile)
    assert {"profile", "date", "commit"} <= set(data["reproduction"])
    assert set(data["studies"]) == {"dumbbell", "hstcp", "ramya", "vegas"}
    for part in data["studies"].values():
        assert {"summary", "claims", "readings", "cross_sim", "queues"} <= set(part)
    answered(profile)
    assert data["reproduction"]["source"]
    for part in data["studies"].values():
        assert {"papers", "answer", "cross_sim_metrics", "cross_sim_published"} <= set(part)
        for paper in part["papers"].values():
            assert {"claims", "holds", "against", "conclusion", "answer"} <= set(paper)


def opening(text: str) -> str:
    """A page's title and what follows it, up to its first section."""
    return text.split("\n## ", 1)[0]


def test_each_study_page_opens_with_its_papers_answers() -> None:
    for name, part in answered("default")["studies"].items():
        text = (REPO / "docs" / "studies" / f"{name}.md").read_text(encoding="utf-8")
        keys = {key for _, key in VERDICT.findall(opening(text))}
        assert {f"{name}.papers.{p}.answer" for p in part["papers"]} <= keys, name
        assert QUOTES.search(opening(text)), f"{name}: the opening names no run"


def test_today_queues_quotes_each_papers_conclusion_per_queue() -> None:
    text = (REPO / "docs" / "today-queues.md").read_text(encoding="utf-8")
    keys = {key for _, key in VERDICT.findall(text)}
    want = set()
    for name, part in answered("default")["studies"].items():
        for pid, paper in part["papers"].items():
            if not paper["conclusion"]:
                continue
            at = f"{name}.papers.{pid}.conclusion"
            want |= {f"{at}.claim", f"{at}.statement"}
            for scope, verdicts in paper["conclusion"]["outcomes"].items():
                want |= {f"{at}.outcomes.{scope}.{where}" for where in verdicts}
    assert want, "no paper declares a conclusion"
    assert want <= keys, sorted(want - keys)
