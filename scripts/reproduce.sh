#!/usr/bin/env bash
# Install what is missing, then reproduce every configured study and print the summary.
# usage: bash scripts/reproduce.sh [CORES] [extra snakemake arguments, e.g. --configfile config/quick.yaml]
# Snakemake's job lines go to results/logs/snakemake.log; the terminal shows one progress line
# (runs done of the planned total, rate, ETA), then the per-study summary (`python -m bufrepro.cli show --summary`).
# After a kill, run the same command again: a stale lock (no Snakemake runs in this checkout) is
# removed, and --rerun-incomplete redoes the jobs the kill interrupted; finished runs are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cores=${1:-$(nproc)}
shift || true
export PATH="$PWD/.venv/bin:$PATH"
# The config files named after --configfile are checked before Snakemake parses them: a file
# that is not YAML, or not a mapping, stops here naming itself (Snakemake's own error does not).
files=(); infiles=0
for a in "$@"; do
  case "$a" in
    --configfile|--configfiles) infiles=1 ;;
    --configfile=*) files+=("${a#*=}"); infiles=0 ;;
    -*) infiles=0 ;;
    *) if [ "$infiles" -eq 1 ]; then files+=("$a"); fi ;;
  esac
done
if [ "${#files[@]}" -gt 0 ]; then python -m bufrepro.pipeline.config_check "${files[@]}" || exit 2; fi
# A lock left by a killed Snakemake is removed; one held by a running Snakemake stops us here.
python scripts/snakelock.py --unlock . || exit 1
mkdir -p results/logs
log=results/logs/snakemake.log
echo "[reproduce] snakemake --cores $cores --keep-going --rerun-incomplete $*  (job lines: $log)"
if [ ! -x .ns2/bin/ns-patched ]; then
  echo "[reproduce] no patched ns-2 in .ns2/ yet: dumbbell, ramya (counting in ns), vegas and hstcp need it, so the workflow builds it first (minutes; progress: results/logs/build_ns2.log)"
fi
start=$(date +%s)
snakemake --cores "$cores" --keep-going --rerun-incomplete "$@" > "$log" 2>&1 &
pid=$!
python -m bufrepro.cli progress --config results/config.validated.yaml --pid "$pid" || true
rc=0
wait "$pid" || rc=$?
took=$(( $(date +%s) - start ))
if [ "$rc" -ne 0 ]; then
  echo "[reproduce] snakemake failed (exit $rc) after ${took} s; the errors in $log:"
  # From the first error on (Snakemake's config notices left out), else the log's end.
  errors=$(grep -v 'is extended by additional config' "$log" | awk '/Error|Exception/ { p = 1 } p' | head -n 30)
  if [ -n "$errors" ]; then echo "$errors"; else tail -n 30 "$log"; fi
  echo "[reproduce] fix the cause, then run the same command again (finished runs are kept)"
  exit "$rc"
fi
echo "[reproduce] workflow done in ${took} s"
# Snakemake's own report (figures and tables with captions) beside bufrepro's report/index.html.
snakemake --report report/snakemake-report.html "$@" >> "$log" 2>&1 \
  || echo "[reproduce] snakemake --report failed (see $log)"
python -m bufrepro.cli show --config results/config.validated.yaml --summary
echo "[reproduce] tables: $PWD/results/<study>/tables/  figures: $PWD/results/<study>/figures/"
echo "[reproduce] report: $PWD/report/index.html  Snakemake's report: $PWD/report/snakemake-report.html"
echo "[reproduce] follow-ups repeat this run's config: .venv/bin/snakemake --cores 1 show_diff --configfile results/config.validated.yaml"
