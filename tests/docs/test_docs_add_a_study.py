"""The page's "Add a study" steps are complete: a throwaway sixth study, made in a copy of the
repository by the scaffold command the page shows, passes the tests that check every study's
registration and docs, plans with Snakemake, and its tiny scenario runs on the real ns-2.

The copy follows the page: its scaffold command, then the one shared edit left to the author
(the docs' pipeline numbers, `N <!-- n: KEY -->`, rewritten to what tests/docs/test_docs_numbers.py
computes), then a commit (the report's provenance names one). About 60 s of CPU."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from docs_markup import REPO, blocks

from conftest import NS2_PREFIX

PAGE = REPO / "docs" / "contributing.md"
SECTION = "Add a study"
# What a run leaves in the repository, and the links to the machine's builds: not copied.
SKIP = ("results/", ".snakemake/", "report/index.html", "site/")
NUMBERS = "tests/docs/test_docs_numbers.py"
# The tests, run in the copy, that check every study's registration and docs.
CHECKS = (
    "tests/test_architecture.py",
    "tests/test_package_data.py",
    "tests/pipeline/test_plan.py",
    "tests/pipeline/test_configuration.py",
    "tests/pipeline/test_default_seeds.py",
    "tests/pipeline/test_labels.py",
    "tests/pipeline/test_report_text.py",
    "tests/pipeline/test_progress.py::test_every_study_runs_untraced_for_the_benchmark_floor",
    NUMBERS,
    "tests/docs/test_docs_paths.py",
    "tests/docs/test_docs_summary.py",
    "tests/docs/test_docs_citations.py",
    "tests/docs/test_docs_site.py",
    "tests/docs/test_docs_no_hashes.py",
)
# test_docs_numbers' message for a number the pipeline no longer plans.
STALE = re.compile(r"(\S+) says ([\d,]+) for (\S+); the pipeline plans ([\d,]+)")


def section_commands() -> list[list[str]]:
    """The commands of the section's shell blocks, as a shell splits them."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"## {SECTION}")
    end = text.find("\n## ", start + 1)
    first, last = text.count("\n", 0, start) + 1, text.count("\n", 0, end) + 1
    found = [b for b in blocks(PAGE) if first <= b.line <= last and b.info == "sh"]
    return [words for b in found for words in b.commands()]


def copy_repo(dest: Path) -> Path:
    """The repository's files (tracked or not ignored), without results, and its ns-2 builds."""
    names = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in names:
        src = REPO / name
        if src.is_file() and not name.startswith(SKIP):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command in the copy, importing the copy's bufrepro, with this repository's ns-2 build."""
    env = {
        **os.environ,
        "BUFREPRO_NS2_PREFIX": str(NS2_PREFIX),
        "PYTHONPATH": str(cwd / "src"),
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def renumber(copy: Path) -> list[str]:
    """Rewrite each docs number test_docs_numbers finds stale to what it computes; return them."""
    out = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", NUMBERS], copy)
    fixed = []
    for page, written, key, planned in sorted(set(STALE.findall(out.stdout))):
        path = copy / page
        marker = re.compile(rf"{re.escape(written)}(\**\s*<!-- n: {re.escape(key)} -->)")
        path.write_text(marker.sub(rf"{planned}\1", path.read_text(encoding="utf-8")), "utf-8")
        fixed.append(f"{page}: {key} {written} -> {planned}")
    return fixed


def scaffold_commands() -> list[list[str]]:
    """The section's scaffold commands (its other command is the numbers test, renumber's)."""
    return [w for w in section_commands() if w[:3] == ["python", "-m", "bufrepro.scaffold"]]


def test_the_page_shows_the_scaffold_and_the_numbers_step() -> None:
    commands = section_commands()
    assert len(scaffold_commands()) == 1, commands
    assert ["pytest", NUMBERS] in commands, commands


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> Path:
    """A copy of the repository with the page's sixth study added and committed."""
    root = copy_repo(tmp_path_factory.mktemp("scaffold") / "repo")
    for words in scaffold_commands():
        made = run([sys.executable, *words[1:]], root)
        assert made.returncode == 0, made.stdout + made.stderr
    assert renumber(root), "a new study plans more runs: some docs number must change"
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "a sixth study"]):
        ident = ["-c", "user.name=bufrepro", "-c", "user.email=bufrepro@localhost"]
        assert run(["git", *ident, *git], root).returncode == 0
    return root


def study_name() -> str:
    return scaffold_commands()[0][3]


def test_the_new_study_passes_the_studies_and_docs_tests(copy: Path) -> None:
    name = study_name()
    assert (copy / "src" / "bufrepro" / "studies" / name / "__init__.py").is_file()
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"]
    out = run([*argv, f"tests/studies/{name}", *CHECKS], copy)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    checked = run([sys.executable, "published/check_published.py"], copy)
    assert checked.returncode == 0, checked.stdout[-2000:]
    ruff = str(Path(sys.executable).parent / "ruff")
    for argv in ([ruff, "check", "src", "tests"], [ruff, "format", "--check", "src", "tests"]):
        linted = run(argv, copy)
        assert linted.returncode == 0, linted.stdout[-2000:]


def test_the_new_study_plans_and_runs_its_tiny_scenario(copy: Path, patched_ns: Path) -> None:
    name = study_name()
    config = copy / "tiny.yaml"
    prefix = patched_ns.parent.parent
    config.write_text(
        f"profile: quick\nstudies: [{name}]\nbackends: {{ns2: {{prefix: '{prefix}'}}}}\n",
        encoding="utf-8",
    )
    snakemake = [sys.executable, "-m", "snakemake", "--cores", "1"]
    planned = run([*snakemake, "-n", "--configfile", str(config)], copy)
    assert planned.returncode == 0 and "run_batch" in planned.stdout, planned.stderr[-3000:]
    # The grid's runs for real (the quick profile's two buffers x two seeds, 5 s each), their
    # summary, the comparison and the figure; the readings stages and the report are planned
    # above, not run (they add about 15 s of CPU and test nothing of the study's own).
    targets = [f"results/{name}/tables/claims.csv", f"results/{name}/figures/throughput.png"]
    made = run([*snakemake, *targets, "--configfile", str(config)], copy)
    assert made.returncode == 0, made.stderr[-3000:]
    claims = (copy / targets[0]).read_text(encoding="utf-8")
    assert claims.count("\nC1,") == 1, claims  # the template's one claim, judged
