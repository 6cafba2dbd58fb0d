#!/usr/bin/gawk -f
# throughput.awk - throughput and goodput at the receiver, per traffic type.
#
# Reads: $1 event, $2 time (s), $4 to node, $5 packet type, $6 size (bytes, headers included),
#        $8 flow id, $10 destination address "node.port", $11 sequence number.
# Parameters (-v): t0, t1 - the measurement window in seconds (t1 > t0);
#                  tcp_hdr - header bytes included in a tcp packet's trace size (ns-2: 40).
# Definitions:
#   A receipt is an 'r' event of a non-ack packet whose to-node is the node of its destination
#   address (per-hop 'r' events at routers are not receipts), with time in [t0, t1].
#   T_rx_bytes          sum of trace sizes of type-T receipts (retransmitted copies included)
#   T_throughput_kbps   T_rx_bytes * 8 / (t1 - t0) / 1000
#   T_goodput_kbps      payload bytes of the first receipt of each (flow id, sequence number)
#                       * 8 / (t1 - t0) / 1000; payload = size - tcp_hdr for tcp, size otherwise.
#                       A duplicate (same flow and sequence number received again) adds nothing.
#   T_rx_pkts           number of type-T receipts
BEGIN {
    OFS = "\t"
    if (t0 == "" || t1 == "" || t1 <= t0) { print "throughput.awk: set -v t0=... -v t1=... (t1 > t0)" > "/dev/stderr"; usage = 1; exit 2 }
    if (tcp_hdr == "") tcp_hdr = 40
}
$1 == "r" && $5 != "ack" {
    split($10, d, ".")
    if ($4 != d[1]) next
    t = $5
    if (!(t in rx)) { rx[t] = 0; good[t] = 0; pk[t] = 0 }
    key = $8 SUBSEP $11
    if (key in delivered) { if ($2 >= t0 && $2 <= t1) { rx[t] += $6; pk[t]++ }; next }
    delivered[key] = 1
    if ($2 >= t0 && $2 <= t1) {
        rx[t] += $6; pk[t]++
        pay = (t == "tcp") ? $6 - tcp_hdr : $6
        if (pay > 0) good[t] += pay
    }
}
END {
    if (usage) exit 2
    span = t1 - t0
    for (t in rx) {
        printf "%s_rx_pkts\t%d\n", t, pk[t]
        printf "%s_rx_bytes\t%d\n", t, rx[t]
        printf "%s_throughput_kbps\t%.6f\n", t, rx[t] * 8 / span / 1000
        printf "%s_goodput_kbps\t%.6f\n", t, good[t] * 8 / span / 1000
    }
}
