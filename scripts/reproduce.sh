#!/usr/bin/env bash
# Install what is missing, then reproduce every configured study and print the diff.
# usage: bash scripts/reproduce.sh [CORES] [extra snakemake arguments, e.g. --configfile config/quick.yaml]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cores=${1:-$(nproc)}
shift || true
export PATH="$PWD/.venv/bin:$PATH"
snakemake --cores "$cores" --keep-going "$@"
snakemake --cores 1 show_diff "$@"
echo "[reproduce] tables in results/<study>/tables/, figures in results/<study>/figures/, report in report/index.html"
