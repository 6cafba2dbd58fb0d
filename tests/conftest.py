"""Shared fixtures: the repository root, a tiny validated config, and the tools' presence."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bufrepro.kit import configs
from bufrepro.pipeline import configuration

REPO = Path(__file__).resolve().parents[1]

# The patched ns-2 that ns2/build.sh builds (the vegas study and tests/test_ns2_patched.py).
NS2_PREFIX = Path(os.environ.get("BUFREPRO_NS2_PREFIX", str(REPO / ".ns2")))
PATCHED_NS = NS2_PREFIX / "bin" / "ns-patched"

# A grid small enough for an end-to-end run with the real ns-2 in seconds. The workflow in a
# copy of the repository uses the repository's patched ns-2 build (backends.ns2.prefix) rather than
# building its own (about a minute on 2 idle cores, ten under load, per copy).
TINY: dict[str, Any] = {
    "studies": ["dumbbell", "hstcp"],
    # ns-2 alone (the default runs the dumbbell and hstcp on ns-3 too): the two-simulator tests
    # say so.
    "simulators": {"dumbbell": ["ns2"], "hstcp": ["ns2"]},
    "backends": {"ns2": {"prefix": str(NS2_PREFIX)}},
    "dumbbell": {
        "seeds": [1, 2],
        "grid": {
            "queue": ["DropTail", "RED"],
            "plr": [0.05],
            "bottleneck_mbps": [0.5],
            "buffer": [5, 15, 50],
        },
        "measure": {"duration_s": 5, "warmup_s": 1},
    },
    # hstcp at 10 Mb/s for 2.5 s (the paper's scenario 1 scaled down: BDP 125 packets).
    "hstcp": {
        "seeds": [1, 2],
        "grid": {"scenario": ["s1"], "queue": ["DropTail", "RED"], "buffer_frac": [0.1, 1.0]},
        "scenarios": {
            "s1": {
                "bottleneck_mbps": 10,
                "bottleneck_delay_ms": 50,
                "rtt_min_ms": 115.5,
                "rtt_max_ms": 124.5,
                "n_flows": 10,
            }
        },
        "tcp": {"start_jitter_s": 0.5},
        "measure": {"duration_s": 2.5, "warmup_s": 1, "sample_s": 0.25},
        "twoflow": {
            "seeds": [1],
            "bottleneck_mbps": 10,
            "duration_s": 2.5,
            "warmup_s": 1,
            "timeseries_s": 0.05,
        },
        "model": {"extra_fractions": [0.5]},
        # The grid alone: the claims' own fractions (params.claim_fractions) would more than
        # double these runs; test_hstcp_claims checks that every profile plans them.
        "claims": {"plan_points": False},
        # No ns-2 twins of the default's scaled ns-3 cells (ns-3 does not run here).
        "twin": None,
    },
}


def base_config() -> dict[str, Any]:
    """The default config files merged, as a plain dict (not yet validated)."""
    import yaml

    merged_files: dict[str, Any] = {}
    for path in configuration.default_files():
        with path.open(encoding="utf-8") as fh:
            merged_files = configs.merge(merged_files, yaml.safe_load(fh))
    return merged_files


def merged(overrides: dict[str, Any]) -> dict[str, Any]:
    """The default config deep-merged with overrides, as Snakemake merges --configfile."""
    return configs.merge(base_config(), overrides)


@pytest.fixture
def tiny_cfg() -> dict[str, Any]:
    """The validated tiny config."""
    return configuration.validate(merged(TINY))


def copy_repo(dest: Path) -> Path:
    """Copy the repository's files (tracked or not ignored, no results) to dest; return it."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for name in files:
        src = REPO / name
        if src.is_file() and not name.startswith(("results/", "tests/")):
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    return dest


def snakemake(workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the workflow in workdir (a copy of the repository) with this interpreter's Snakemake."""
    return subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )


REQUIRE_PATCHED_ENV = "BUFREPRO_REQUIRE_PATCHED_NS"


def patched_ns_required() -> bool:
    """Whether a missing patched ns-2 fails the tests instead of skipping them (CI sets it)."""
    return os.environ.get(REQUIRE_PATCHED_ENV, "") not in ("", "0")


@pytest.fixture(scope="session")
def patched_ns() -> Path:
    """Path of the patched ns; skip (or fail, if required) when it was not built."""
    if not (PATCHED_NS.is_file() and os.access(PATCHED_NS, os.X_OK)):
        msg = (
            f"patched ns-2 not built ({PATCHED_NS} absent): run `bash ns2/build.sh` "
            "(needs deb-src and build deps; see shared/notes/ns2-build.md)"
        )
        if patched_ns_required():
            pytest.fail(f"{msg}; {REQUIRE_PATCHED_ENV} is set, so it is required")
        pytest.skip(f"{msg}; set {REQUIRE_PATCHED_ENV}=1 to make this a failure")
    return PATCHED_NS


@pytest.fixture(scope="session")
def ns_available() -> None:
    """Fail (not skip) when ns-2 or gawk is missing: the tests need the real tools."""
    for tool in ("ns", "gawk"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is not installed; run scripts/setup.sh (apt-get install ns2 gawk)")
