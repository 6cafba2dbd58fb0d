#!/usr/bin/env bash
# Run one rendered ns-2 script in its run folder and record provenance.
# usage: run_ns2.sh NS_BINARY SIM_TCL TRACE_OUT RUN_JSON
# The TCL writes out.tr into its own folder and prints "BUFREPRO_DONE <time>" when it finishes.
# Exit 0 only if ns exited 0, printed the marker and left a non-empty trace; otherwise the
# job fails (Snakemake then removes out.tr and run.json, so nothing partial is counted) and
# the log names the one command that reproduces the run.
set -uo pipefail
ns_bin=$1 tcl=$2 trace=$3 meta=$4
dir=$(cd "$(dirname "$tcl")" && pwd)
name=$(basename "$tcl")
cmd="cd $dir && $ns_bin $name"
ns_path=$(command -v "$ns_bin") || { echo "run_ns2: ns binary '$ns_bin' not found (Debian's ns: apt-get install ns2; the patched ns-patched: bash ns2/build.sh)"; exit 127; }
start=$(date +%s.%N)
(cd "$dir" && "$ns_path" "$name") > "$dir/ns.stdout" 2> "$dir/ns.stderr"
rc=$?
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
cat "$dir/ns.stdout" "$dir/ns.stderr"
done_line=$(grep -m1 '^BUFREPRO_DONE ' "$dir/ns.stdout" || true)
if [ "$rc" -ne 0 ] || [ -z "$done_line" ] || [ ! -s "$trace" ]; then
  echo "run_ns2: FAILED (exit code $rc, finish marker: ${done_line:-missing}, trace: $( [ -s "$trace" ] && echo present || echo missing/empty ))"
  echo "run_ns2: reproduce with: $cmd"
  exit 1
fi
ns_version=$(printf 'puts [ns-version]\nexit 0\n' | "$ns_path" 2>/dev/null | head -1)
if [ -f "$ns_path.version" ]; then
  # A build of ns2/build.sh: its version line and the patches' hash.
  pkg="$(head -1 "$ns_path.version") patches $(sed -n 's/^patches-sha256 //p' "$ns_path.version" | cut -c1-12)"
else
  pkg=$(dpkg-query -W -f='${Package} ${Version}' ns2 2>/dev/null || echo "not a Debian package")
fi
sha=$(sha256sum "$ns_path" | cut -d' ' -f1)
cat > "$meta" <<JSON
{
 "command": "$cmd",
 "exit_code": $rc,
 "finished_at_sim_s": ${done_line#BUFREPRO_DONE },
 "ns_binary": "$ns_path",
 "ns_package": "$pkg",
 "ns_sha256": "$sha",
 "ns_version": "$ns_version",
 "wall_s": $wall
}
JSON
echo "run_ns2: ok in ${wall}s"
