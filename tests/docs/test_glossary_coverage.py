"""The glossary defines every outcome word and column heading the report and `bufrepro show`
print, collected from where the code keeps them, so that a new word or column fails here.

Outcome words: a claim's (kit/verdicts.yaml), a cross-simulator cell's (its `agreement` block
and crosssim.yaml's "unexplained"), today's queues' (pipeline/queues.yaml's groups) and the
readings verdict's opening words (pipeline/readings/verdict.py). Column headings: the summary's
(summary.display_rows), the cross-simulator tables' (report_crosssim.view, kit/crosssim's count
columns, crosssim.published_gap), today's queues' own column (queues.yaml) and every fixed
heading of the report's templates. The studies' metric columns (a study's own tables) are not
collected: each study's captions define them. A word is defined when docs/glossary.md sets it
in italics or bold, or makes it a heading, case and line breaks aside.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Iterator

import pytest
import yaml

from bufrepro.kit import crosssim as kcrosssim
from bufrepro.kit import verdicts
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import crosssim, evidence, queues, report_crosssim, summary
from bufrepro.pipeline.readings import verdict as readings_verdict
from bufrepro.pipeline.report_diff import readable

GLOSSARY = REPO_ROOT / "docs" / "glossary.md"
TEMPLATES = sorted((REPO_ROOT / "report").glob("*.html.j2"))


def norm(text: str) -> str:
    return " ".join(text.replace("_", " ").split()).lower()


def defined(text: str) -> set[str]:
    """What a glossary text defines: its italic and bold spans and its headings, normalised."""
    spans = re.findall(r"(?<!\*)\*{1,2}(?!\*)([^*]+?)\*{1,2}", text)
    heads = re.findall(r"^#{2,}\s+(.+)$", text, flags=re.M)
    return {norm(s) for s in [*spans, *heads]}


def _function(fn: Callable[..., object]) -> ast.AST:
    """The function's syntax tree, from its source."""
    return ast.parse(inspect.cleandoc("\n" + inspect.getsource(fn)))


def dict_keys(fn: Callable[..., object]) -> list[str]:
    """The string keys of every dict literal in a function."""
    return [
        k.value
        for n in ast.walk(_function(fn))
        if isinstance(n, ast.Dict)
        for k in n.keys
        if isinstance(k, ast.Constant) and isinstance(k.value, str)
    ]


def list_items(fn: Callable[..., object], name: str) -> list[str]:
    """The strings of a list literal a function assigns to `name`."""
    return [
        e.value
        for n in ast.walk(_function(fn))
        if isinstance(n, ast.Assign)
        and any(getattr(t, "id", "") == name for t in n.targets)
        and isinstance(n.value, ast.List)
        for e in n.value.elts
        if isinstance(e, ast.Constant) and isinstance(e.value, str)
    ]


def opening_words(fn: Callable[..., object]) -> list[str]:
    """The words a function's returned f-strings open with, up to ' under' or ';'."""
    out = []
    for n in ast.walk(_function(fn)):
        if isinstance(n, ast.Return) and isinstance(n.value, ast.JoinedStr):
            first = n.value.values[0]
            if isinstance(first, ast.Constant):
                out.append(re.split(r" under\b|;", str(first.value))[0])
    return out


def outcome_words() -> Iterator[tuple[str, str]]:
    said = verdicts.words()
    for word in said["claim"].values():
        yield "claim outcome (kit/verdicts.yaml)", str(word).split("{")[0]
    for word in said["agreement"].values():
        yield "cross-simulator outcome (kit/verdicts.yaml)", str(word)
    reasons = yaml.safe_load(crosssim.WORDS.read_text(encoding="utf-8"))
    yield "cross-simulator reason (crosssim.yaml)", str(reasons["unexplained"])
    for word in queues.words()["group"]:
        yield "today's queues outcome (queues.yaml)", str(word)
    for word in opening_words(readings_verdict.words):
        yield "readings verdict (readings/verdict.py)", word
    yield "readings verdict (evidence.not_judged)", evidence.not_judged([]).rstrip(": ")


def column_headings() -> Iterator[tuple[str, str]]:
    for key in dict_keys(summary.display_rows):
        yield "summary column (summary.display_rows)", key
    for key in dict_keys(report_crosssim.view):
        yield "cross-simulator column (report_crosssim.view)", readable(key)
    for fn in (kcrosssim.counts, kcrosssim.counts_each):
        for key in list_items(fn, "columns"):
            yield "cross-simulator counts column (kit/crosssim.py)", readable(key)
    for key in dict_keys(crosssim.published_gap):
        yield "cross-simulator published column (crosssim.published_gap)", readable(key)
    yield (
        "today's queues column (queues.yaml)",
        re.sub(r"\{\w+\},?\s*", "", str(queues.words()["own_column"])),
    )
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        for head in re.findall(r"<th[^>]*>([^<{]+)", text):
            yield f"column of {path.name}", head
        for small in re.findall(r'<span class="small">([^<{]+)</span></th>', text):
            yield f"column of {path.name}", small


def missing(text: str) -> list[str]:
    known = defined(text)
    found = [*outcome_words(), *column_headings()]
    return sorted(
        {f"{where}: {word.strip()!r}" for where, word in found if norm(word) not in known}
    )


def test_the_glossary_defines_every_word_and_column_the_report_prints() -> None:
    gaps = missing(GLOSSARY.read_text(encoding="utf-8"))
    assert not gaps, "docs/glossary.md defines none of:\n" + "\n".join(gaps)


@pytest.mark.parametrize("word", ["agree", "inside 95% CI", "twin", "unexplained"])
def test_the_check_fails_on_a_word_left_undefined(word: str) -> None:
    text = GLOSSARY.read_text(encoding="utf-8")
    assert norm(word) in defined(text)
    plain = re.sub(r"\*{1,2}(" + re.escape(word) + r")\*{1,2}", r"\1", text, flags=re.I)
    plain = re.sub(r"^(#+\s+)" + re.escape(word) + "$", r"\1(gone)", plain, flags=re.I | re.M)
    assert norm(word) not in defined(plain)
