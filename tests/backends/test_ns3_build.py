"""ns3/build.sh is reproducible: the same sources built in two folders give the same sha256."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bufrepro.backends.simulators import ns3
from bufrepro.kit.paths import REPO_ROOT


def _clone(where: Path) -> Path:
    """A copy of ns3/ with its build script, headers and one program (link.cc, the smallest)."""
    folder = where / "ns3"
    folder.mkdir(parents=True)
    for f in (REPO_ROOT / "ns3").iterdir():
        if f.suffix in (".h", ".sh") or f.name == "link.cc":
            shutil.copy(f, folder / f.name)
    return folder


def _build(folder: Path, prefix: Path) -> dict[str, str]:
    subprocess.run(["bash", str(folder / "build.sh"), str(prefix)], check=True, capture_output=True)
    lines = (prefix / "build.txt").read_text(encoding="utf-8").splitlines()
    return dict(line.split(" ", 1) for line in lines)


def test_two_folders_build_the_same_program(tmp_path: Path) -> None:
    if ns3.missing():
        pytest.fail(ns3.missing())
    a = _build(_clone(tmp_path / "first clone"), tmp_path / "out-a")
    b = _build(_clone(tmp_path / "second" / "clone"), tmp_path / "out-b")
    assert a["sha256"].startswith("link ") and len(a["sha256"].split()[1]) == 64
    assert a == b  # the record, the program's sha256 included, names no folder
    assert "<ns3 folder>" in a["flags"] and str(tmp_path) not in "".join(a.values())
    assert a["compiler"].startswith("g++")
