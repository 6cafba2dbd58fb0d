# wired.awk - (library) the trace metrics of one ns-2 wired trace ("old" format), in one pass.
#
# The rules shared by dumbbell/dumbbell.awk and ramya/ramya.awk (see their headers for the
# command line): they read each line once, front to back (a file, stdin or a named pipe that
# ns-2 is still writing), take its fields and call the metric families of lib/accounting.awk,
# lib/delay.awk, lib/throughput.awk, lib/loss.awk and lib/link.awk; everything is printed in END.
#
# Reads (one event a line, as ns-2's Trace::format writes it):
#   NF   the field count: a line with fewer than 12 fields is malformed (a truncated trace)
#   $1   event: + enqueue, - dequeue (transmission starts), r receive at the link's far end,
#        d drop
#   $2   time (s)
#   $3   from node, $4 to node (the link the event is on)
#   $5   packet type ("ack" is not data; tcp, cbr, ping, ... are)
#   $6   size (bytes, headers included)
#   $8   flow id
#   $9   source address "node.port", $10 destination address "node.port" (the node is the part
#        before the dot)
#   $11  sequence number
#   $12  packet uid
# Events, as the families see them:
#   send     a packet's first '+' or 'd' whose from-node is the node of its source address
#   receipt  an 'r' of a data packet whose to-node is the node of its destination address
#            (per-hop 'r' events at routers are not receipts)
#   the link every event on link_from -> link_to
# Parameters (-v): t0, t1 - the measurement window (s, t1 > t0); t_end - the simulated end
#   time (s); max_age - how long before the trace's end a packet still in flight may have been
#   seen last (s); link_from, link_to - the measured link's end nodes; link_bps - its capacity
#   (bit/s); tcp_hdr - header bytes in a tcp packet's size (default 40).
# Output: the metrics of the five families, "name<TAB>value" lines in LC_ALL=C order.
# Exit: 0 - metrics printed; 2 - a parameter missing or out of range (nothing read, nothing
#   printed); 3 - a line is malformed or an accounting check failed (the reasons on stderr, at
#   most 10, then the count): nothing printed.

@include "metrics.awk"
@include "accounting.awk"
@include "delay.awk"
@include "throughput.awk"
@include "loss.awk"
@include "link.awk"

BEGIN {
    if (PROG == "") PROG = "wired.awk"
    if (t0 == "" || t1 == "" || t1 <= t0 || t_end == "" || max_age == "" || link_from == "" \
        || link_to == "" || link_bps <= 0) {
        print PROG ": set -v t0=... -v t1=... (t1 > t0) -v t_end=... -v max_age=... -v link_from=... -v link_to=... -v link_bps=... [-v tcp_hdr=40]" > "/dev/stderr"
        WIRED_USAGE = 1; exit 2
    }
    if (tcp_hdr == "") tcp_hdr = 40
    link_init()
}

NF < 12 { fail("malformed or truncated line: " $0); next }

# Per line, the cheap state updates are inline (their functions are named in the comments);
# a packet's send, receipt and drop call the families.
{
    tm = $2 + 0; ev = $1; type = $5; uid = $12
    if (tm > ACCT_TEND) ACCT_TEND = tm                              # acct_clock(tm)
    if (!(type in LOSS_SENT)) loss_type(type)
    if (type != "ack" && (uid in ACCT_FLY)) ACCT_FLY[uid] = tm      # acct_seen(uid, tm)
    if ($3 == link_from && $4 == link_to) link_event(ev, uid, tm, $6)
    if (ev == "+") {
        if (!(uid in WIRED_SENT) && $3 == int($9)) wired_send(uid, type, tm, 1)
        LOSS_Q[uid, $3, $4] = 1                                     # loss_enq(uid, link)
    } else if (ev == "-") {
        delete LOSS_Q[uid, $3, $4]                                  # loss_deq(uid, link)
    } else if (ev == "r") {
        delete LOSS_Q[uid, $3, $4]                                  # loss_arrive(uid, link)
        if (type != "ack" && $4 == int($10)) {
            acct_recv(uid); delay_recv(uid, type, tm); tput_recv(type, $8, $11, $6, tm)
        }
    } else if (ev == "d") {
        if (!(uid in WIRED_SENT) && $3 == int($9)) wired_send(uid, type, tm, 0)
        loss_drop(uid, $3 SUBSEP $4, type, tm)
        if (type != "ack") { acct_drop(uid); delay_drop(uid) }
    }
}

# The packet's first '+' (enq 1) or 'd' (enq 0) at the node of its source address.
function wired_send(uid, type, t, enq) {
    WIRED_SENT[uid] = 1
    loss_send(type, t)
    if (type != "ack") { acct_send(uid, t); if (enq) delay_send(uid, t) }
}

END {
    if (WIRED_USAGE) exit 2
    if (acct_end(t_end, max_age)) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }
    delay_report(); tput_report(); loss_report(); link_report()
    metrics_print()
}
