#!/usr/bin/gawk -f
# e2e_ratio.awk - the vegas study's "delay w.r.t. throughput" (the paper's eq. 4) of one run.
#
# Reads: the run's metric lines "name<TAB>value" (what e2e_delay.awk and e2e_throughput.awk
#        printed): $1 name, $2 value; uses tcp_delay_ms_mean and tcp_throughput_kbps.
# Definition:
#   delay_per_throughput   tcp_delay_ms_mean / tcp_throughput_kbps, in ms per kb/s, per run
#                          (the summary averages the per-run ratios; empty when either is
#                          missing or the throughput is 0)
BEGIN { FS = "\t" }
$1 == "tcp_delay_ms_mean" { d = $2 }
$1 == "tcp_throughput_kbps" { t = $2 }
END {
    if (d == "" || t == "" || t + 0 == 0) printf "delay_per_throughput\t\n"
    else printf "delay_per_throughput\t%.6f\n", d / t
}
