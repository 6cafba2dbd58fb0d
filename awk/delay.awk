#!/usr/bin/gawk -f
# delay.awk - one-way end-to-end delay of data packets, per traffic type.
#
# Reads (ns-2 wired trace, one event a line):
#   $1 event (+ - r d), $2 time (s), $3 from node, $4 to node, $5 packet type,
#   $9 source address "node.port", $10 destination address "node.port", $12 packet uid.
# Parameters (-v): t0, t1 - the measurement window in seconds.
# Definitions:
#   A data packet is any packet whose type is not "ack". ns-2 gives every transmission,
#   retransmissions included, its own uid, so each uid is one packet sent once.
#   Its send time is its first '+' (enqueue) event whose from-node is the node of its source
#   address; its receipt is the first 'r' event whose to-node is the node of its destination
#   address. Per-hop 'r' events at routers are not receipts. Dropped packets have no delay.
#   Only packets sent within [t0, t1] count; the trace ends at t1 at the latest.
# Prints "metric<TAB>value" lines, for each type T seen:
#   T_delay_pkts      number of packets sent in the window and received at their destination
#   T_delay_ms_mean   mean of (receipt time - send time) over those packets, in ms
#   T_delay_ms_max    largest such delay, in ms
#   T_delay_ms_p95    95th percentile (nearest rank) of those delays, in ms
BEGIN { OFS = "\t"; if (t0 == "" || t1 == "") { print "delay.awk: set -v t0=... -v t1=..." > "/dev/stderr"; usage = 1; exit 2 } }
$5 == "ack" { next }
$1 == "+" {
    if (!($12 in sent_at) && !($12 in seen)) {
        split($9, s, ".")
        if ($3 == s[1]) { sent_at[$12] = $2 + 0; seen[$12] = 1 }
    }
    next
}
$1 == "r" {
    if ($12 in sent_at) {
        split($10, d, ".")
        if ($4 == d[1]) {
            ts = sent_at[$12]
            delete sent_at[$12]
            if (ts >= t0 && ts <= t1) {
                ms = ($2 - ts) * 1000.0
                n[$5]++
                sum[$5] += ms
                if (!($5 in mx) || ms > mx[$5]) mx[$5] = ms
                all[$5, n[$5]] = ms
            }
        }
    }
    next
}
$1 == "d" { delete sent_at[$12]; next }
END {
    if (usage) exit 2
    for (t in n) {
        delete v
        for (i = 1; i <= n[t]; i++) v[i] = all[t, i]
        asort(v)
        rank = int(0.95 * n[t] + 0.999999); if (rank < 1) rank = 1
        printf "%s_delay_pkts\t%d\n", t, n[t]
        printf "%s_delay_ms_mean\t%.6f\n", t, sum[t] / n[t]
        printf "%s_delay_ms_max\t%.6f\n", t, mx[t]
        printf "%s_delay_ms_p95\t%.6f\n", t, v[rank]
    }
}
