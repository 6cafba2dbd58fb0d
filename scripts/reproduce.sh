#!/usr/bin/env bash
# Install what is missing, then reproduce every configured study and print the diff.
# usage: bash scripts/reproduce.sh [CORES] [extra snakemake arguments, e.g. --configfile config/quick.yaml]
# Snakemake's job lines go to results/logs/snakemake.log; the terminal shows one progress line
# (runs done of the planned total, rate, ETA), then the diffs, coverage and claims.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cores=${1:-$(nproc)}
shift || true
export PATH="$PWD/.venv/bin:$PATH"
mkdir -p results/logs
log=results/logs/snakemake.log
echo "[reproduce] snakemake --cores $cores $*  (log: $log)"
snakemake --cores "$cores" --keep-going "$@" > "$log" 2>&1 &
pid=$!
python -m bufrepro.cli progress --config results/config.validated.yaml --pid "$pid" || true
rc=0
wait "$pid" || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "[reproduce] snakemake failed (exit $rc); the end of $log:"
  tail -n 30 "$log"
  exit "$rc"
fi
python -m bufrepro.cli show --config results/config.validated.yaml
echo "[reproduce] tables in results/<study>/tables/, figures in results/<study>/figures/, report in $PWD/report/index.html"
