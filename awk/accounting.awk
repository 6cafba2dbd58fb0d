#!/usr/bin/gawk -f
# accounting.awk - every data packet sent is received, dropped, or in flight at the end.
#
# Reads: every field count (a line with fewer than 12 fields is a truncated trace),
#        $1 event, $2 time (s), $3 from node, $4 to node, $5 type, $9 source and $10 destination
#        address "node.port", $12 uid.
# Parameters (-v): t_end - the simulated end time (s); max_age - how long before the end a
#                  packet still in flight may have been seen last (s).
# Definitions (data packets: type not "ack"; one uid = one packet, retransmissions are new uids):
#   acct_sent        packets with an event at their source node ('+', or a drop there)
#   acct_received    packets with an 'r' at the node of their destination address
#   acct_dropped     packets with a 'd' event anywhere
#   acct_in_flight   acct_sent - acct_received - acct_dropped
#   acct_trace_end   time of the last event in the trace
#   acct_ok          1 when every check passed (otherwise the script exits 3 and prints why)
# Checks: no malformed line; no packet received or dropped that was never sent; no packet
#   received or dropped twice; every packet in flight at the end was seen within max_age of the
#   trace's end; the trace reaches t_end - max_age.
BEGIN {
    OFS = "\t"; bad = 0; tend = 0
    if (t_end == "" || max_age == "") { print "accounting.awk: set -v t_end=... -v max_age=..." > "/dev/stderr"; usage = 1; exit 2 }
}
function fail(msg) { if (bad < 10) print "accounting.awk: line " NR ": " msg > "/dev/stderr"; bad++ }
NF < 12 { fail("malformed or truncated line: " $0); next }
{ if ($2 + 0 > tend) tend = $2 + 0 }
$5 == "ack" { next }
{
    uid = $12
    if (!(uid in sent) && !(uid in done) && ($1 == "+" || $1 == "d")) {
        split($9, s, ".")
        if ($3 == s[1]) { sent[uid] = 1; nsent++ }
    }
    if (uid in sent) last[uid] = $2 + 0
}
$1 == "r" {
    split($10, d, ".")
    if ($4 != d[1]) next
    if (uid in done) { fail("packet " uid " received after it was " done[uid]); next }
    if (!(uid in sent)) { fail("packet " uid " received but never sent"); next }
    done[uid] = "received"; nrecv++; delete sent[uid]; delete last[uid]
}
$1 == "d" {
    if (uid in done) { fail("packet " uid " dropped after it was " done[uid]); next }
    if (!(uid in sent)) { fail("packet " uid " dropped but never sent"); next }
    done[uid] = "dropped"; ndrop++; delete sent[uid]; delete last[uid]
}
END {
    if (usage) exit 2
    if (bad == 0 && NR == 0) fail("empty trace")
    inflight = 0
    for (u in sent) {
        inflight++
        if (tend - last[u] > max_age) fail("packet " u " vanished: last seen at " last[u] ", trace ends at " tend)
    }
    if (tend < t_end - max_age) fail("trace ends at " tend ", before t_end - max_age = " t_end - max_age)
    if (nsent + 0 != nrecv + ndrop + inflight) fail("sent != received + dropped + in flight")
    printf "acct_sent\t%d\n", nsent
    printf "acct_received\t%d\n", nrecv
    printf "acct_dropped\t%d\n", ndrop
    printf "acct_in_flight\t%d\n", inflight
    printf "acct_trace_end\t%.6f\n", tend
    if (bad > 0) { print "accounting.awk: " bad " check(s) failed" > "/dev/stderr"; exit 3 }
    printf "acct_ok\t1\n"
}
