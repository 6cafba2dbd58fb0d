#!/usr/bin/env bash
# Build (or reuse) the patched ns-2 under PREFIX and write a JSON record of it for the workflow.
# usage: build_ns2.sh PREFIX RECORD_JSON
# ns2/build.sh does the work and reuses a build whose version file matches ns2/patches/ (seconds).
# On failure nothing is written and the message says what to do; the studies on Debian's ns still
# run (snakemake --keep-going, or leave the patched studies out of `studies:`).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=$1 out=$2
bash "$here/../ns2/build.sh" "$prefix"
rc=$?
if [ "$rc" -ne 0 ]; then
  case $rc in
    2) why="the ns2 source package could not be fetched: enable deb-src for a Debian mirror (see ns2/README.md) or copy a build into $prefix" ;;
    3) why="build dependencies are missing: apt-get build-dep ns2 (as root)" ;;
    *) why="the build failed (the lines above say where)" ;;
  esac
  echo "build_ns2: FAILED (exit $rc): $why."
  echo "build_ns2: the studies on Debian's ns still run: snakemake --keep-going, or set studies: without them."
  echo "build_ns2: reproduce with: bash ns2/build.sh $prefix"
  exit "$rc"
fi
bin=$prefix/bin/ns-patched
mkdir -p "$(dirname "$out")"
printf '{\n "binary": "%s",\n "sha256": "%s",\n "version_file": "%s"\n}\n' \
  "$bin" "$(sha256sum "$bin" | cut -d' ' -f1)" "$(tr '\n' ';' < "$bin.version")" > "$out"
echo "build_ns2: $bin ready"
