"""Every data file beside the package's modules is shipped with it (pyproject's package-data)."""

from __future__ import annotations

import tomllib

from conftest import REPO

PACKAGE = REPO / "src" / "bufrepro"


def test_every_data_file_is_package_data() -> None:
    spec = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    globs = spec["tool"]["setuptools"]["package-data"]["bufrepro"]
    data = [
        p.relative_to(PACKAGE)
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert data, "no data files found"
    missing = [str(p) for p in data if not any(p.match(g) for g in globs)]
    assert not missing, f"data files not in pyproject's package-data {globs}: {missing}"
