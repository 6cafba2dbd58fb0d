"""The code's shape: import layers, no import cycle, module size and docstrings."""

from __future__ import annotations

import ast
import itertools
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from conftest import REPO

SRC = REPO / "src" / "bufrepro"
MAX_LINES = 400


def test_import_contracts_hold() -> None:
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    proc = subprocess.run([lint], cwd=REPO, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "broken" not in proc.stdout.split("Contracts:")[-1].lower() or "0 broken" in proc.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    modules = sorted(graph.modules)
    state: dict[str, int] = {}
    found: list[list[str]] = []
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.find_modules_directly_imported_by(m)):
            if n not in graph.modules:
                continue
            if state.get(n) == 1:
                found.append([*stack[stack.index(n) :], n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in modules:
        if m not in state:
            visit(m)
    return found


def test_no_import_cycle() -> None:
    # Imports inside functions count too: a cycle hidden in a function is still a cycle.
    graph = grimp.build_graph("bufrepro", include_external_packages=False)
    packages = {
        m for m in graph.modules if (SRC / Path(*m.split(".")[1:]) / "__init__.py").exists()
    }
    # A package's __init__ importing its own submodules is not a cycle between concepts.
    cycles = [
        c
        for c in _cycles(graph)
        if not any(a in packages and b.startswith(a + ".") for a, b in itertools.pairwise(c))
    ]
    assert cycles == []


def test_a_cycle_would_be_found() -> None:
    graph = grimp.ImportGraph()
    for m in ("x", "x.a", "x.b"):
        graph.add_module(m)
    graph.add_import(importer="x.a", imported="x.b")
    graph.add_import(importer="x.b", imported="x.a")
    assert _cycles(graph)


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_module_is_small_and_documented(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_LINES, f"{path} has more than {MAX_LINES} lines"
    doc = ast.get_docstring(ast.parse(text))
    assert doc, f"{path} has no module docstring"
    assert "\n" not in doc.strip(), f"{path}: the module docstring is not one line"


def test_finding_and_planning_the_studies_stays_light() -> None:
    # Every Snakemake start (and every batch job) imports the registry and plans: no pandas,
    # matplotlib or scipy there, or planning a large grid would be slow.
    code = (
        "import sys; from bufrepro import registry; from bufrepro.pipeline import plan, batch;"
        "registry.discover();"
        "print(sorted(m for m in ('pandas', 'matplotlib', 'scipy') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"
