#!/usr/bin/env bash
# Make the README's pictures (docs/img/report-summary.png and docs/img/own-link-page.png, each
# with its record) from this tree's finished quick run: python -m bufrepro.pipeline.pictures.
# usage: bash scripts/summary_png.sh   (after a quick run: bash scripts/reproduce.sh 2 --configfile config/quick.yaml)
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m bufrepro.pipeline.pictures --tree . "$@"
