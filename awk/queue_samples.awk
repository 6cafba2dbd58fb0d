#!/usr/bin/gawk -f
# queue_samples.awk - the R1 -> R2 queue length as sampled by a QueueMonitor (Fig. 3).
#
# Reads: the lines the scenario writes every monitor.queue_sample_s seconds: $1 time (s), $2 the
#        QueueMonitor's pkts_ - packets waiting in the queue (arrivals - departures - drops; the
#        packet on the wire has departed, so it does not count).
# Parameters (-v): t0, t1 - the measurement window in seconds.
# Definitions (samples with TIME in [t0, t1]):
#   qmon_samples         number of samples
#   qmon_queue_avg_pkts  their mean - a sampled estimate of link.awk's time-average
#                        link_queue_avg_pkts (the "avg. queue length" of Table 5)
#   qmon_queue_max_pkts  their largest value
BEGIN { OFS = "\t"; if (t0 == "" || t1 == "") { print "queue_samples.awk: set -v t0=... -v t1=..." > "/dev/stderr"; usage = 1; exit 2 } }
NF >= 2 && $1 + 0 >= t0 && $1 + 0 <= t1 { n++; sum += $2; if ($2 + 0 > mx) mx = $2 + 0 }
END {
    if (usage) exit 2
    printf "qmon_samples\t%d\n", n
    if (n > 0) {
        printf "qmon_queue_avg_pkts\t%.6f\n", sum / n
        printf "qmon_queue_max_pkts\t%d\n", mx
    }
}
