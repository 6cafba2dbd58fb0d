"""Check config files before Snakemake parses them: each names itself when it is bad."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bufrepro.kit.configs import ConfigError
from bufrepro.pipeline import configuration


def main(argv: Sequence[str]) -> int:
    """Exit 0 when every file is a readable YAML mapping with valid booleans, else print one
    message naming the file and exit 2 (scripts/reproduce.sh runs this before Snakemake)."""
    try:
        configuration.check_files(argv)
    except ConfigError as err:
        print(f"[reproduce] {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
