"""`bufrepro reproduce [CORES] [snakemake arguments]`: scripts/reproduce.sh, as it is."""

from __future__ import annotations

import argparse
import subprocess

from bufrepro.commands.command import Command
from bufrepro.kit.paths import REPO_ROOT

REPRODUCE = REPO_ROOT / "scripts" / "reproduce.sh"


def _run(args: argparse.Namespace) -> int:
    if any(a in ("-h", "--help") for a in args.argv):
        print(
            "usage: bufrepro reproduce [CORES] [snakemake arguments]\n\n"
            f"Runs {REPRODUCE.relative_to(REPO_ROOT)}: installs what is missing, runs every "
            "configured study on CORES cores (default: all) and prints the per-study summary.\n"
            "e.g. bufrepro reproduce 2 --configfile config/quick.yaml"
        )
        return 0
    return subprocess.call(["bash", str(REPRODUCE), *args.argv], cwd=REPO_ROOT)


COMMANDS = (
    Command(
        "reproduce",
        _run,
        user="every configured study end to end (scripts/reproduce.sh [CORES] [snakemake args])",
    ),
)
