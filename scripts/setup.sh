#!/usr/bin/env bash
# Install what bufrepro needs on a Debian bookworm machine: ns-2, gawk and ns-3 (libns3-dev,
# libgsl-dev, pkg-config, g++: the ns3 backend's programs are built against them) from Debian,
# and a virtualenv (.venv) with the pinned Python packages of requirements.txt.
# Idempotent: a second run installs nothing new.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v ns >/dev/null 2>&1 || need_apt+=(ns2)
command -v gawk >/dev/null 2>&1 || need_apt+=(gawk)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
pkg-config --exists ns3-core 2>/dev/null || need_apt+=(libns3-dev)
[ -f /usr/include/gsl/gsl_version.h ] || need_apt+=(libgsl-dev)
[ -f /usr/include/sqlite3.h ] || need_apt+=(libsqlite3-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[setup] installing Debian packages: ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv with $($PY --version)"
  "$PY" -m venv .venv
fi
stamp=.venv/.bufrepro-requirements.sha256
want=$(cat requirements.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  total=$(grep -cE '^[A-Za-z0-9._-]+==' requirements.txt || true)
  echo "[setup] installing $total pinned Python packages (pip; its full output: .venv/pip.log)"
  # One progress line per 10 packages collected, then pip's summary; the rest goes to the log.
  .venv/bin/pip install --disable-pip-version-check --progress-bar off -r requirements.txt 2>&1 \
    | tee .venv/pip.log \
    | awk -v total="$total" '
        /^(Collecting|Processing) / { n++; if (n % 10 == 0) printf "[setup] pip: %d/%d collected\n", n, total; fflush() }
        /^Installing collected packages/ { printf "[setup] pip: installing %d packages\n", n; fflush() }
        /^Successfully installed/ { print "[setup] pip: done"; fflush() }
        /^ERROR/ { print }'
  .venv/bin/pip install -q --disable-pip-version-check --no-deps -e . >> .venv/pip.log 2>&1
  echo "$want" > "$stamp"
fi
# ns-2 has no -version flag (`ns -version` reads a script from stdin and prints nothing): ask its
# Tcl for ns-version, and Debian for the package version.
ns_version=$(echo 'puts [ns-version]; exit 0' | ns 2>/dev/null | head -1 || true)
ns_deb=$(dpkg-query -W -f '${Version}' ns2 2>/dev/null || true)
echo "[setup] ready: ns ${ns_version:-?}${ns_deb:+ (Debian ns2 $ns_deb)}, $(gawk --version | head -1 | cut -d, -f1), $(.venv/bin/python --version)"
