#!/usr/bin/env bash
# Parse one vegas run (a wired-cum-wireless trace) into metrics.tsv ("name<TAB>value" lines) and
# the throughput time series: awk/mixed.awk (the two line formats) with e2e_loss.awk (accounting,
# loss, efficiency; runs first, a failed check fails the run), e2e_delay.awk, e2e_throughput.awk,
# then link.awk on the N1 -> MAP bottleneck and e2e_ratio.awk on the metrics so far.
# usage: parse_vegas.sh AWK_DIR TRACE OUT SERIES t0 t1 t_end max_age src dst fid hdr traced
#                       link_from link_to link_bps bin_s
# Nothing is written unless every script succeeds.
set -euo pipefail
awk_dir=$1 trace=$2 out=$3 series=$4 t0=$5 t1=$6 t_end=$7 max_age=$8 src=$9 dst=${10}
fid=${11} hdr=${12} traced=${13} lf=${14} lt=${15} bps=${16} bin_s=${17}
tmp="$out.tmp"
trap 'rm -f "$tmp" "$tmp.series" "$tmp.base"' EXIT
lib="$awk_dir/mixed.awk"
{
  gawk -f "$lib" -f "$awk_dir/e2e_loss.awk" -v t0="$t0" -v t1="$t1" -v t_end="$t_end" \
    -v max_age="$max_age" -v src="$src" -v dst="$dst" -v fid="$fid" -v traced="$traced" "$trace"
  gawk -f "$lib" -f "$awk_dir/e2e_delay.awk" -v t0="$t0" -v t1="$t1" -v src="$src" -v dst="$dst" \
    -v fid="$fid" "$trace"
  gawk -f "$lib" -f "$awk_dir/e2e_throughput.awk" -v t0="$t0" -v t1="$t1" -v dst="$dst" -v fid="$fid" \
    -v hdr="$hdr" -v series="$tmp.series" -v bin_s="$bin_s" "$trace"
  gawk -f "$awk_dir/link.awk" -v t0="$t0" -v t1="$t1" -v from="$lf" -v to="$lt" -v bps="$bps" "$trace"
} > "$tmp.base"
{
  cat "$tmp.base"
  gawk -f "$awk_dir/e2e_ratio.awk" "$tmp.base"
} > "$tmp"
LC_ALL=C sort "$tmp" > "$out"
mv "$tmp.series" "$series"
echo "parse_vegas: $(wc -l < "$out") metrics and $(wc -l < "$series") series bins from $trace"
