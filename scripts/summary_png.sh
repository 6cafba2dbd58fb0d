#!/usr/bin/env bash
# Make the README's picture, docs/img/report-summary.png: the first screen of report/index.html
# (its summary table) in Debian's headless chromium, cropped and reduced to 64 colours.
# usage: bash scripts/summary_png.sh [HEIGHT]   (after a quick run: bash scripts/reproduce.sh 2 --configfile config/quick.yaml)
set -euo pipefail
cd "$(dirname "$0")/.."
height=${1:-725}
report=$PWD/report/index.html
out=docs/img/report-summary.png
[ -f "$report" ] || { echo "no $report: run the quick profile first" >&2; exit 1; }
command -v chromium >/dev/null || { echo "chromium is missing: apt-get install chromium" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/profile" \
  --screenshot="$tmp/full.png" --window-size=1200,900 "file://$report" 2>/dev/null
.venv/bin/python - "$tmp/full.png" "$out" "$height" <<'EOF'
import sys

from PIL import Image

full, out, height = sys.argv[1], sys.argv[2], int(sys.argv[3])
Image.open(full).convert("RGB").crop((0, 0, 1200, height)).quantize(colors=64).save(out, optimize=True)
EOF
echo "[summary_png] $out: $(stat -c %s "$out") bytes"
