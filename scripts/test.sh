#!/usr/bin/env bash
# Install what is missing (Debian packages, .venv, the patched ns-2), then run every check:
# ruff, mypy, snakefmt, snakemake --lint, pytest.
# usage: bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The patched ns-2 (ns2/patches/) for the vegas study and its tests: built once into .ns2/ and
# reused; a missing build then fails the tests instead of skipping them.
bash ns2/build.sh
export BUFREPRO_REQUIRE_PATCHED_NS=1
export PATH="$PWD/.venv/bin:$PATH"
echo "[test] ruff";      ruff check src tests; ruff format --check src tests
echo "[test] mypy";      mypy
echo "[test] snakefmt";  snakefmt --check Snakefile rules/
echo "[test] lint";      snakemake --lint --configfile config/quick.yaml
echo "[test] published"; python published/check_published.py > /dev/null
echo "[test] pytest"
exec pytest "$@"
