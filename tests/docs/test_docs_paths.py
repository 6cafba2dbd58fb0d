"""Every repository path and bufrepro module the README and docs/ name exists."""

from __future__ import annotations

import importlib
import re

import pytest
from docs_markup import REPO, module_names, pages, rel, repo_paths

from bufrepro import registry

# Made by a run, a build or setup, never committed: named in the docs, checked by the tests of
# what makes them, not here.
GENERATED = (
    "results/",
    "report/index.html",
    "report/snakemake-report.html",
    "report/figures/",
    "report.zip",
    ".venv/",
    ".ns2/",
    ".ns3/",
    ".snakemake/",
    "site/",
    "out/",
    "experiments/",
    "report/experiments/",
)
# ns-2's OTcl class names look like paths.
NS2_CLASSES = ("Agent/", "Queue/", "Application/", "ErrorModel/", "Trace/")


def expand(pattern: str) -> list[str]:
    """A path pattern as globs: {a,b} alternatives, `<study>` (or `<S>`) once per study, any
    other `<...>` as `*`."""
    m = re.search(r"\{([^{}]*)\}", pattern)
    if m:
        alts = m.group(1).split(",")
        return [g for a in alts for g in expand(pattern[: m.start()] + a + pattern[m.end() :])]
    if "<study>" in pattern or "<S>" in pattern:
        return [
            g
            for s in registry.names()
            for g in expand(pattern.replace("<study>", s).replace("<S>", s))
        ]
    return [re.sub(r"<[^<>]*>", "*", pattern)]


def missing(pattern: str) -> list[str]:
    """The globs of a path pattern that match no file or folder of the repository."""
    return [g for g in expand(pattern.rstrip("/")) if not any(REPO.glob(g))]


CASES = sorted({(rel(p), s) for p in pages() for s in repo_paths(p)})


def test_the_pages_name_paths() -> None:
    assert len(CASES) > 50, CASES


@pytest.mark.parametrize(("page", "path"), CASES)
def test_named_path_exists(page: str, path: str) -> None:
    if path.startswith(GENERATED + NS2_CLASSES):
        return
    assert not missing(path), f"{page} names `{path}`: no such file ({missing(path)})"


@pytest.mark.parametrize(
    ("page", "name"), sorted({(rel(p), n) for p in pages() for n in module_names(p)})
)
def test_named_module_imports(page: str, name: str) -> None:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            assert hasattr(obj, attr), f"{page} names `{name}`: {attr} not found"
            obj = getattr(obj, attr)
        return
    pytest.fail(f"{page} names `{name}`: no such module")


def test_expand_finds_a_renamed_file() -> None:
    """The check itself: a pattern over every study, an unknown file, a real one."""
    assert missing("config/<study>.yaml") == []
    assert missing("scripts/bench_hstcp.sh") == ["scripts/bench_hstcp.sh"]
    assert missing("awk/e2e_*.awk") == ["awk/e2e_*.awk"]
    assert missing("rules/studies/<study>.smk")  # only hstcp has its own rules
