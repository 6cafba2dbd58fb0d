#!/usr/bin/env bash
# Run one hstcp ns-2 script with its bottleneck stream parsed while ns runs, and record provenance.
# usage: run_hstcp.sh NS_BINARY SIM_TCL METRICS_OUT RUN_JSON AWK_SCRIPT KEEP_GZ t0 t1 t_end from to bps pkt
# The TCL writes its bottleneck stream to "bottleneck.fifo" in its own folder (a named pipe made
# here); gawk reads the pipe as ns writes it, so the stream never lands on disk. KEEP_GZ=1 also
# keeps a compressed copy (bottleneck.tr.gz, gzip -1) beside the metrics.
# Exit 0 only if ns exited 0 and printed its finish marker and gawk passed its accounting
# checks; otherwise the job fails (Snakemake removes the partial outputs) and the log names the
# command that reproduces the run.
set -uo pipefail
ns_bin=$1 tcl=$2 metrics=$3 meta=$4 awk_script=$5 keep=$6
t0=$7 t1=$8 t_end=$9 from=${10} to=${11} bps=${12} pkt=${13}
dir=$(cd "$(dirname "$tcl")" && pwd)
name=$(basename "$tcl")
fifo="$dir/bottleneck.fifo"
tmp="$metrics.tmp"
cmd="cd $dir && mkfifo bottleneck.fifo && (gawk -f $awk_script -v t0=$t0 -v t1=$t1 -v t_end=$t_end -v from=$from -v to=$to -v bps=$bps -v pkt=$pkt bottleneck.fifo &) && $ns_bin $name"
ns_path=$(command -v "$ns_bin") || { echo "run_hstcp: ns binary '$ns_bin' not found on PATH (install the Debian package ns2: apt-get install ns2)"; exit 127; }
rm -f "$fifo" "$tmp" "$dir/bottleneck.tr.gz"
mkfifo "$fifo"
cleanup() { rm -f "$fifo" "$tmp"; }
trap cleanup EXIT
parse=(gawk -f "$awk_script" -v t0="$t0" -v t1="$t1" -v t_end="$t_end" -v from="$from" -v to="$to" -v bps="$bps" -v pkt="$pkt")
start=$(date +%s.%N)
if [ "$keep" = 1 ]; then
  (tee >(gzip -1 > "$dir/bottleneck.tr.gz") < "$fifo" | "${parse[@]}" > "$tmp" 2> "$dir/parse.stderr") &
else
  ("${parse[@]}" "$fifo" > "$tmp" 2> "$dir/parse.stderr") &
fi
parser=$!
(cd "$dir" && "$ns_path" "$name") > "$dir/ns.stdout" 2> "$dir/ns.stderr"
rc=$?
# If ns died before opening the pipe, the parser still waits to open it: open and close it
# once (read-write, which never blocks on Linux) so that it sees an empty stream, rejects it and
# finishes. Harmless when ns did write: the parser reads to the end either way.
exec 3<>"$fifo"
exec 3>&-
wait "$parser"
prc=$?
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
cat "$dir/ns.stdout" "$dir/ns.stderr" "$dir/parse.stderr"
done_line=$(grep -m1 '^BUFREPRO_DONE ' "$dir/ns.stdout" || true)
if [ "$rc" -ne 0 ] || [ -z "$done_line" ] || [ "$prc" -ne 0 ] || ! grep -q '^acct_ok	1$' "$tmp"; then
  echo "run_hstcp: FAILED (ns exit code $rc, finish marker: ${done_line:-missing}, parser exit code $prc)"
  echo "run_hstcp: reproduce with: $cmd"
  rm -f "$dir/bottleneck.tr.gz"
  exit 1
fi
LC_ALL=C sort "$tmp" > "$metrics"
ns_version=$(printf 'puts [ns-version]\nexit 0\n' | "$ns_path" 2>/dev/null | head -1)
pkg=$(dpkg-query -W -f='${Package} ${Version}' ns2 2>/dev/null || echo "not a Debian package")
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
 "parser": "$(basename "$awk_script") (streamed)",
 "wall_s": $wall
}
JSON
echo "run_hstcp: ok in ${wall}s ($(wc -l < "$metrics") metrics)"
