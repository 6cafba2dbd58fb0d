#!/usr/bin/env bash
# Benchmark one 1 Gb/s hstcp point: ns untraced vs traced and parsed (wall, CPU, memory, disk).
# usage: bash scripts/bench_hstcp.sh [--reps N] [--duration S] [--events] [--scenario s2] [--json FILE]
# See src/bufrepro/hstcp_bench.py. A measurement, not a test (nothing here can fail a build).
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m bufrepro.hstcp_bench "$@"
