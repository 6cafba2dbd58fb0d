#!/usr/bin/gawk -f
# e2e_delay.awk - end-to-end delay of one TCP flow's data packets (the vegas study's "network
# delay"), on a wired-cum-wireless trace. Needs mixed.awk: gawk -f mixed.awk -f e2e_delay.awk.
#
# Reads (through mixed.awk's parse_line): wired $1 event, $2 time, $3 from node, $5 type, $8 flow
#  id, $12 uid; wireless $1 event and -t, -Ni, -Nl, -It, -If, -Ii.
# Parameters (-v): t0, t1 - measurement window (s, t1 > t0); src - the sender's node; dst - the
#                  receiver's node; fid - the flow id of the TCP agent.
# Data packets: type "tcp" with flow id fid (ACKs are type "ack"); one uid is one transmission
# (a retransmission is a new uid).
# Sent: the first '+' of the uid on a wired link leaving src (its first enqueue at the source).
# Received: the first receipt of the uid by the receiving agent at dst - a wireless 'r' at node
# dst on layer AGT, or a wired 'r' on a link into dst; later receipts of the same uid (none are
# expected) are ignored.
# Definitions (packets sent in [t0, t1] and received, whenever):
#   tcp_delay_ms_mean     mean of (receipt time - send time) in ms ("network delay")
#   tcp_delay_ms_p95      95th percentile of the same (nearest rank)
#   tcp_delay_ms_max      the largest
#   tcp_delay_samples     how many packets the three are over
# Packets dropped or still in flight at the end have no delay and are not counted.
BEGIN {
    OFS = "\t"
    if (t0 == "" || t1 == "" || t1 <= t0 || src == "" || dst == "" || fid == "") {
        print "e2e_delay.awk: set -v t0=... -v t1=... -v src=... -v dst=... -v fid=..." > "/dev/stderr"
        usage = 1; exit 2
    }
    n = 0; sum = 0; maxd = 0
}
$1 != "+" && $1 != "r" { next }  # the only events read (skipped before parsing: speed)
{
    if (!parse_line() || PTYPE != "tcp" || FID != fid) next
    if (!WIRELESS && EV == "+" && FROM == src) {
        if (!(UID in sent)) sent[UID] = T
        next
    }
    if (EV != "r" || (UID in got)) next
    if ((WIRELESS && NODE == dst && LAYER == "AGT") || (!WIRELESS && TO == dst)) {
        got[UID] = 1
        if (!(UID in sent)) next
        ts = sent[UID]
        if (ts < t0 || ts > t1) next
        d = (T - ts) * 1000
        delays[++n] = d; sum += d
        if (d > maxd) maxd = d
    }
}
END {
    if (usage) exit 2
    if (n == 0) {
        printf "tcp_delay_ms_mean\t\ntcp_delay_ms_p95\t\ntcp_delay_ms_max\t\ntcp_delay_samples\t0\n"
        exit 0
    }
    asort(delays)
    k = int(0.95 * n + 0.999999); if (k < 1) k = 1; if (k > n) k = n
    printf "tcp_delay_ms_mean\t%.6f\n", sum / n
    printf "tcp_delay_ms_p95\t%.6f\n", delays[k]
    printf "tcp_delay_ms_max\t%.6f\n", maxd
    printf "tcp_delay_samples\t%d\n", n
}
