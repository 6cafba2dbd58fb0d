"""The glossary defines every outcome word a claim can end in (kit/verdicts.yaml)."""

from __future__ import annotations

import re

from bufrepro.kit import verdicts
from bufrepro.kit.paths import REPO_ROOT

GLOSSARY = REPO_ROOT / "docs" / "glossary.md"


def _claim_section() -> str:
    text = GLOSSARY.read_text(encoding="utf-8")
    match = re.search(r"^## Claim\n(.*?)(?=^## )", text, flags=re.M | re.S)
    assert match, "docs/glossary.md has no '## Claim' section"
    return match.group(1)


def _defined(section: str) -> set[str]:
    """The words the section sets in italics (*word*), spaces and line breaks normalised."""
    return {" ".join(w.split()) for w in re.findall(r"\*([^*]+)\*", section)}


def test_the_glossary_defines_every_claim_outcome_word() -> None:
    defined = _defined(_claim_section())
    for key, said in verdicts.words()["claim"].items():
        shown = str(said).split("{")[0].strip()  # untestable's placeholder form by its prefix
        assert shown in defined, f"the glossary's Claim section does not define {key}: {shown!r}"


def test_the_check_fails_on_a_missing_word() -> None:
    section = _claim_section().replace("*not supported*", "not supported")
    assert "not supported" not in _defined(section)
