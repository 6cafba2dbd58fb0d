#!/usr/bin/env bash
# Parse one ns-2 trace with the AWK scripts of awk/ into metrics.tsv ("name<TAB>value" lines).
# usage: parse_trace.sh AWK_DIR TRACE OUT t0 t1 t_end max_age link_from link_to link_bps
# The accounting check runs first; if it (or any script) fails, OUT is not written.
set -euo pipefail
awk_dir=$1 trace=$2 out=$3 t0=$4 t1=$5 t_end=$6 max_age=$7 lf=$8 lt=$9 bps=${10}
tmp="$out.tmp"
trap 'rm -f "$tmp"' EXIT
{
  gawk -f "$awk_dir/accounting.awk" -v t_end="$t_end" -v max_age="$max_age" "$trace"
  gawk -f "$awk_dir/delay.awk" -v t0="$t0" -v t1="$t1" "$trace"
  gawk -f "$awk_dir/throughput.awk" -v t0="$t0" -v t1="$t1" -v tcp_hdr=40 "$trace"
  gawk -f "$awk_dir/loss.awk" -v t0="$t0" -v t1="$t1" "$trace"
  gawk -f "$awk_dir/link.awk" -v t0="$t0" -v t1="$t1" -v from="$lf" -v to="$lt" -v bps="$bps" "$trace"
} > "$tmp"
LC_ALL=C sort "$tmp" > "$out"
echo "parse_trace: $(wc -l < "$out") metrics from $trace"
