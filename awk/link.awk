#!/usr/bin/gawk -f
# link.awk - utilisation and queue occupancy of one link (the bottleneck).
#
# Reads: $1 event, $2 time (s), $3 from node, $4 to node, $6 size (bytes), $12 uid.
# Parameters (-v): t0, t1 - measurement window (s, t1 > t0); from, to - the link's end nodes;
#                  bps - the link's capacity in bit/s.
# Definitions:
#   link_utilisation     bits of packets whose transmission starts ('-' on the link) in
#                        [t0, t1], divided by bps * (t1 - t0)
#   link_queue_avg_pkts  time average over [t0, t1] of the queue length in packets, where the
#                        queue grows by one at each '+' on the link and shrinks by one at each
#                        '-' and at each 'd' of a packet that had a '+' there but no '-' (a queue
#                        drop); link-head drops (error model) never entered the queue
#   link_queue_max_pkts  largest queue length held for a positive time within [t0, t1] (a '+'
#                        and a '-' at the same instant do not count as a longer queue)
#   link_departed_pkts   '-' events on the link in [t0, t1]
BEGIN {
    OFS = "\t"
    if (t0 == "" || t1 == "" || t1 <= t0 || from == "" || to == "" || bps <= 0) {
        print "link.awk: set -v t0=... -v t1=... -v from=... -v to=... -v bps=..." > "/dev/stderr"; usage = 1; exit 2
    }
    q = 0; qmax = 0; area = 0; last = t0; bits = 0; dep = 0
}
function advance(now) {
    if (now > t1) now = t1
    if (now > last) { area += q * (now - last); if (q > qmax) qmax = q; last = now }
}
$3 == from && $4 == to {
    tm = $2 + 0
    if (tm >= t0) advance(tm)
    if ($1 == "+") { q++; inq[$12] = 1 }
    else if ($1 == "-") {
        if ($12 in inq) { q--; delete inq[$12] }
        if (tm >= t0 && tm <= t1) { bits += $6 * 8; dep++ }
    }
    else if ($1 == "d" && ($12 in inq)) { q--; delete inq[$12] }
}
END {
    if (usage) exit 2
    advance(t1)
    printf "link_utilisation\t%.6f\n", bits / (bps * (t1 - t0))
    printf "link_queue_avg_pkts\t%.6f\n", area / (t1 - t0)
    printf "link_queue_max_pkts\t%d\n", qmax
    printf "link_departed_pkts\t%d\n", dep
}
