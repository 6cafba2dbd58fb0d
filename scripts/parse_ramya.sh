#!/usr/bin/env bash
# Parse one ramya run: the generic trace metrics (parse_trace.sh) plus the TCP agent's RTT
# samples (awk/rtt.awk), the ping log (awk/ping.awk) and the queue samples (awk/queue_samples.awk).
# usage: parse_ramya.sh AWK_DIR TRACE RTT PING QUEUE OUT t0 t1 t_end max_age link_from link_to link_bps
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
awk_dir=$1 trace=$2 rtt=$3 ping=$4 queue=$5 out=$6 t0=$7 t1=$8
tmp="$out.ramya.tmp"
trap 'rm -f "$tmp" "$tmp.base"' EXIT
bash "$here/parse_trace.sh" "$awk_dir" "$trace" "$tmp.base" "$t0" "$t1" "${@:9}"
{
  cat "$tmp.base"
  gawk -f "$awk_dir/rtt.awk" -v t0="$t0" -v t1="$t1" "$rtt"
  gawk -f "$awk_dir/ping.awk" -v t0="$t0" -v t1="$t1" "$ping"
  gawk -f "$awk_dir/queue_samples.awk" -v t0="$t0" -v t1="$t1" "$queue"
} > "$tmp"
LC_ALL=C sort "$tmp" > "$out"
echo "parse_ramya: $(wc -l < "$out") metrics from $trace, $rtt, $ping and $queue"
