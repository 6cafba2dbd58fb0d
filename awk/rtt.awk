#!/usr/bin/gawk -f
# rtt.awk - round-trip time as the TCP sender measures it (the agent's own RTT samples).
#
# Reads: the variable trace of `$tcp attach FILE; $tcp trace rtt_` (ns-2 TcpAgent::traceVar):
#        $1 time (s), $2 source node, $3 source port, $4 destination node, $5 destination port,
#        $6 variable name, $7 value (s). Lines of other variables are ignored.
# Parameters (-v): t0, t1 - the measurement window in seconds.
# Definitions:
#   A sample is an assignment of rtt_ with a value above 0: ns-2 sets rtt_ once per measured
#   round trip - one timed segment at a time, from its send to the first ACK covering it, not
#   timed again after a retransmission timeout (Karn) - in whole ticks of tcpTick_ (at least 1);
#   the 0 written when the agent starts is not a sample. INET's TCP measures the same way
#   (one timed segment, Karn's rule) with exact clocks.
#   tcp_rtt_samples   samples with time in [t0, t1]
#   tcp_rtt_s_mean    their mean (s) - the "Average RTT" / "RTT in sec" of Tables 1 and 5
#   tcp_rtt_s_min     their smallest value (s)
#   tcp_rtt_s_p95     their 95th percentile, nearest rank (s)
#   tcp_rtt_s_max     their largest value (s)
BEGIN { OFS = "\t"; if (t0 == "" || t1 == "") { print "rtt.awk: set -v t0=... -v t1=..." > "/dev/stderr"; usage = 1; exit 2 } }
$6 == "rtt_" && $7 + 0 > 0 && $1 + 0 >= t0 && $1 + 0 <= t1 {
    v = $7 + 0; n++; sum += v; all[n] = v
    if (n == 1 || v < mn) mn = v
    if (n == 1 || v > mx) mx = v
}
END {
    if (usage) exit 2
    printf "tcp_rtt_samples\t%d\n", n
    if (n == 0) { print "rtt.awk: no RTT sample in the window" > "/dev/stderr"; exit 3 }
    asort(all)
    rank = int(0.95 * n + 0.999999); if (rank < 1) rank = 1
    printf "tcp_rtt_s_mean\t%.6f\n", sum / n
    printf "tcp_rtt_s_min\t%.6f\n", mn
    printf "tcp_rtt_s_p95\t%.6f\n", all[rank]
    printf "tcp_rtt_s_max\t%.6f\n", mx
}
