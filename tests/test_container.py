"""The image of envs/Dockerfile reproduces the quick profile's tables byte for byte.

Opt-in (BUFREPRO_TEST_CONTAINER=1): needs root, podman, debootstrap (installed if missing) and
a Debian mirror. tests/infra/container.sh makes a local Debian base (no registry is reachable
here), builds the image with podman and runs the quick profile in it; the tables must equal
those of a run of the quick profile outside the container. Prints image size, build time and
the in-image vs outside run times.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "infra"))
import repro

pytestmark = [
    pytest.mark.container,
    pytest.mark.skipif(
        os.environ.get("BUFREPRO_TEST_CONTAINER") != "1",
        reason="container test: set BUFREPRO_TEST_CONTAINER=1 (root, podman, debootstrap)",
    ),
]

SCRIPT = repro.INFRA / "container.sh"


def infra(*args: str, timeout: float) -> dict[str, str]:
    """Run tests/infra/container.sh; fail with its output's end unless it succeeds."""
    proc = subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "BUFREPRO_CORES": str(repro.cores())},
    )
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
        pytest.fail(f"container.sh {' '.join(args)} exited {proc.returncode}:\n{tail}")
    return repro.metrics(proc.stdout)


def test_image_reproduces_quick_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    built = infra("build", timeout=1200)
    out = tmp_path / "container-out"
    ran = infra("run", str(out), "quick", timeout=1800)

    work, local = repro.run_quick_locally(tmp_path)
    assert local.returncode == 0, f"local quick run failed:\n{local.tail()}"

    summary = (
        f"[container] image {int(built['image_bytes']) / 1e6:.0f} MB, "
        f"build {float(built['build_seconds']):.0f} s (base {float(built['base_seconds']):.0f} s), "
        f"quick profile in image {float(ran['run_seconds']):.0f} s "
        f"vs outside {local.seconds:.0f} s ({repro.cores()} cores)"
    )
    with capsys.disabled():
        print(f"\n{summary}")

    problems = repro.compare_tables(work, out)
    assert repro.tables(work), f"the local run wrote no tables:\n{local.tail()}"
    assert not problems, "tables differ between image and host:\n" + "\n".join(problems)
    # CI verifies a sample of the quick profile (issue 42): re-simulated, byte-identical.
    checked = repro.verify_sample(work)
    assert checked["runs_checked"] >= 10 and checked["same"] == checked["runs_checked"], checked
