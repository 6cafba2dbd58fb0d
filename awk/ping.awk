#!/usr/bin/gawk -f
# ping.awk - round-trip time and loss of the ping application (Section 4.1, Fig. 2).
#
# Reads: the ping log the scenario writes (one event a line): $1 event, $2 time (s), $3 sequence
#        number SEQ, and for replies $4 FWD and $5 RET:
#        "s TIME SEQ"            a request with sequence number SEQ leaves the ping client;
#        "r TIME SEQ FWD RET"    the echo reply to SEQ reaches the client; FWD and RET are the
#                                one-way delays (ms, 0.1 ms resolution) of the request and the
#                                reply, as ns-2's Agent/Ping reports them in its `recv` callback.
# Parameters (-v): t0, t1 - the measurement window in seconds.
# Definitions (requests sent with TIME in [t0, t1] count; an empty log - no ping - prints nothing):
#   ping_sent          requests sent in the window
#   ping_received      of those, requests whose reply came back before the end of the run
#   ping_loss_rate     1 - ping_received / ping_sent (request or reply dropped, or still in flight)
#   ping_rtt_ms_mean   mean over the received ones of FWD + RET: the time from sending the request
#                      to receiving the reply at the client, in ms
#   ping_rtt_ms_p95    95th percentile (nearest rank) of FWD + RET, in ms
#   ping_rtt_ms_max    largest FWD + RET, in ms
#   ping_fwd_ms_mean   mean FWD (client -> R1 -> R2 -> server 2, through the R1 buffer), in ms
BEGIN { OFS = "\t"; if (t0 == "" || t1 == "") { print "ping.awk: set -v t0=... -v t1=..." > "/dev/stderr"; usage = 1; exit 2 } }
$1 == "s" { if ($2 + 0 >= t0 && $2 + 0 <= t1) { inwin[$3] = 1; sent++ }; next }
$1 == "r" {
    if (!($3 in inwin) || ($3 in got)) next
    got[$3] = 1; v = $4 + $5; n++; sum += v; fsum += $4; all[n] = v
    if (n == 1 || v > mx) mx = v
    next
}
END {
    if (usage) exit 2
    if (sent == 0) exit 0
    printf "ping_sent\t%d\n", sent
    printf "ping_received\t%d\n", n
    printf "ping_loss_rate\t%.6f\n", 1 - n / sent
    if (n == 0) exit 0
    asort(all)
    rank = int(0.95 * n + 0.999999); if (rank < 1) rank = 1
    printf "ping_rtt_ms_mean\t%.6f\n", sum / n
    printf "ping_rtt_ms_p95\t%.6f\n", all[rank]
    printf "ping_rtt_ms_max\t%.6f\n", mx
    printf "ping_fwd_ms_mean\t%.6f\n", fsum / n
}
