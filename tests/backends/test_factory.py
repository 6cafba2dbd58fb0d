"""The one spec factory (backends.factory): every run of every owner is built there."""

from __future__ import annotations

import ast
from pathlib import Path

from bufrepro.backends import factory
from bufrepro.backends.base import RunSpec

SRC = Path(__file__).resolve().parents[2] / "src" / "bufrepro"
FACTORY = SRC / "backends" / "factory.py"


def constructors(path: Path) -> list[int]:
    """The lines of `path` that call RunSpec(...) (by its name or as an attribute)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "RunSpec")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "RunSpec")
        )
    ]


def test_no_module_but_the_factory_constructs_a_run_spec() -> None:
    found = {
        str(p.relative_to(SRC)): lines
        for p in sorted(SRC.rglob("*.py"))
        if p != FACTORY and (lines := constructors(p))
    }
    assert found == {}, f"RunSpec built outside backends/factory.py: {found}"
    assert constructors(FACTORY), "the factory no longer builds the specs: this test is stale"


def test_the_factory_builds_the_spec_class_it_names() -> None:
    assert factory.RunSpec is RunSpec
