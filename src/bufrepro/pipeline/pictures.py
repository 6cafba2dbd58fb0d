"""The docs' pictures, shot in headless Chromium, each beside a record of the inputs it shows."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import bench_advise
from bufrepro.pipeline.bench import fresh_copy

# Debian's Chromium (apt-get install chromium), driven by Playwright as the report's browser test
# drives it.
CHROMIUM = Path("/usr/bin/chromium")
# The colours a picture is reduced to: small PNGs, the tables' colours kept.
COLOURS = 64
COMMAND = "python -m bufrepro.pipeline.pictures --tree TREE"


@dataclass(frozen=True)
class Picture:
    """A picture of the docs: where it goes, what it is shot from, and the files whose change
    makes it stale (the template that lays the page out and the code that fills what it shows)."""

    name: str
    png: str
    source: str
    inputs: tuple[str, ...]
    width: int
    height: int  # its first height px; 0: the whole page

    @property
    def record(self) -> str:
        """The record beside the picture: docs/img/NAME.png.json."""
        return self.png + ".json"


PICTURES = (
    Picture(
        "report-summary",
        "docs/img/report-summary.png",
        "report/index.html of the finished quick tree (its first screen: the summary)",
        (
            "report/report.html.j2",
            "report/captions/report/summary.rst",
            "src/bufrepro/pipeline/summary.py",
            "src/bufrepro/pipeline/report.py",
        ),
        1200,
        725,
    ),
    Picture(
        "own-link-page",
        "docs/img/own-link-page.png",
        "the page of `bufrepro advise` on the README's link, made in a fresh copy",
        (
            "report/experiment.html.j2",
            "src/bufrepro/pipeline/experiments/write.py",
            "src/bufrepro/pipeline/experiments/text.py",
        ),
        800,
        1066,
    ),
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digests(picture: Picture, root: Path) -> dict[str, str]:
    """{input: sha256} of a picture's inputs under `root`."""
    return {name: sha256(root / name) for name in picture.inputs}


def stale(root: Path) -> list[str]:
    """Why each picture under `root` no longer shows its inputs: a missing record, an input
    changed since the picture was made, or a picture replaced without its record."""
    out = []
    for p in PICTURES:
        record_path = root / p.record
        if not record_path.is_file():
            out.append(f"{p.png}: no record {p.record} ({COMMAND} makes both)")
            continue
        record = json.loads(record_path.read_text(encoding="utf-8"))
        now = digests(p, root)
        changed = sorted(
            k for k in now.keys() | record["inputs"].keys() if now.get(k) != record["inputs"].get(k)
        )
        if changed:
            out.append(f"{p.png}: older than {', '.join(changed)} ({COMMAND} makes it again)")
        if record["sha256"] != sha256(root / p.png):
            out.append(f"{p.png}: not the picture its record names ({COMMAND} makes both)")
    return out


def shoot(url: str, out: Path, width: int, height: int) -> None:
    """A screenshot of `url` at `width` px (its first `height` px, or the whole page at 0),
    reduced to COLOURS colours."""
    from PIL import Image
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bufrepro-shot-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": height or 900})
        page.goto(url)
        page.wait_for_load_state("load")
        raw = Path(tmp) / "shot.png"
        page.screenshot(path=str(raw), full_page=height == 0)
        browser.close()
        image = Image.open(raw).convert("RGB")
        out.parent.mkdir(parents=True, exist_ok=True)
        image.quantize(colors=COLOURS).save(out, optimize=True)


def record(picture: Picture, tree: Path, made_from: str) -> dict[str, Any]:
    """The record written beside a picture: its digest, its inputs' digests in this repository,
    and the inputs the tree it was shot from had otherwise (a tree made by other code)."""
    mine = digests(picture, REPO_ROOT)
    theirs = {n: sha256(tree / n) if (tree / n).is_file() else "" for n in picture.inputs}
    return {
        "picture": picture.png,
        "sha256": sha256(REPO_ROOT / picture.png),
        "made_from": made_from,
        "command": COMMAND,
        "inputs": mine,
        "tree_inputs_differ": sorted(n for n in mine if theirs[n] != mine[n]),
    }


def advised(work: Path, flags: Sequence[str], cores: int) -> Path:
    """The page of `bufrepro advise FLAGS` (its default name) run in a fresh copy of this
    repository at `work`, the simulators' builds linked as the advisor's benchmark links them."""
    fresh_copy(REPO_ROOT, work)
    for build in bench_advise.BUILDS:
        if (REPO_ROOT / build).exists() and not (work / build).exists():
            (work / build).symlink_to((REPO_ROOT / build).resolve())
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    cmd = [sys.executable, "-m", "bufrepro.cli", "advise", *flags, "--cores", str(cores)]
    subprocess.run(cmd, cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    (page,) = (work / "report" / "experiments").glob("*.html")
    return page


def make(picture: Picture, tree: Path, cores: int) -> dict[str, Any]:
    """Shoot one picture and return its record."""
    out = REPO_ROOT / picture.png
    if picture.name == "report-summary":
        page = tree / "report" / "index.html"
        if not page.is_file():
            raise SystemExit(f"pictures: no {page}: run the quick profile in {tree} first")
        shoot(page.resolve().as_uri(), out, picture.width, picture.height)
        return record(picture, tree, picture.source)
    flags = [*bench_advise.README, *bench_advise.README_QUEUES]
    with tempfile.TemporaryDirectory(prefix="bufrepro-pictures-") as tmp:
        shoot(advised(Path(tmp), flags, cores).as_uri(), out, picture.width, picture.height)
    return record(picture, REPO_ROOT, f"{picture.source}: bufrepro advise {' '.join(flags)}")


def main(argv: Sequence[str] | None = None) -> int:
    """python -m bufrepro.pipeline.pictures --tree TREE [--only NAME] [--cores N]"""
    p = argparse.ArgumentParser(prog="python -m bufrepro.pipeline.pictures", description=__doc__)
    p.add_argument("--tree", default=".", help="a finished quick tree (its report/index.html)")
    names = [x.name for x in PICTURES]
    p.add_argument("--only", choices=names, action="append", help="one picture (repeatable)")
    p.add_argument("--cores", type=int, default=2, help="cores for the advisor's run (default 2)")
    args = p.parse_args(argv)
    if not CHROMIUM.is_file():
        print(f"pictures: {CHROMIUM} is missing (apt-get install chromium)")
        return 1
    for picture in PICTURES:
        if args.only and picture.name not in args.only:
            continue
        made = make(picture, Path(args.tree), args.cores)
        (REPO_ROOT / picture.record).write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")
        note = (
            f"; the tree had other {', '.join(made['tree_inputs_differ'])}"
            if made["tree_inputs_differ"]
            else ""
        )
        print(f"[pictures] {picture.png}: {(REPO_ROOT / picture.png).stat().st_size} bytes{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
