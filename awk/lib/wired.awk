# wired.awk - (library) the trace metrics of one ns-2 wired trace ("old" format), in one pass.
#
# The rules shared by dumbbell/dumbbell.awk and ramya/ramya.awk (see their headers for the
# command line): they read each line once, front to back (a file, stdin or a named pipe that
# ns-2 is still writing), take its fields and call the metric families of lib/accounting.awk,
# lib/delay.awk, lib/throughput.awk, lib/loss.awk and lib/link.awk; everything is printed in END.
#
# Reads (one event a line, as ns-2's Trace::format writes it):
#   NF   the field count: a line without exactly 12 fields is malformed (a truncated trace)
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
#   (bit/s); tcp_hdr - header bytes in a tcp packet's size (default 40); the scenario's
#   fingerprint (lib/integrity.awk): links - its links "a-b,..."; n_nodes - its node count;
#   link_delay - the measured link's propagation delay (s; empty: not checked); fingerprint -
#   the run's header text (lib/integrity.awk, integ_header; empty: no header required).
# Integrity (each failure names the file, the line and the rule; lib/integrity.awk): line 1 is
#   the run's header "# " fingerprint (the scenario writes it; another study, seed, end or run
#   fails, naming the field), line 2 may be "#@ " and the scenario program's version and
#   parameters (skipped), the last line is "# end" (the scenario writes it after ns-2
#   flushed the trace; with a fingerprint a stream without it was cut short, and a line after
#   it fails), every other line has 12 fields, an event + - r or d, a numeric time that never decreases and is not after
#   t_end, is no duplicate of an earlier line at that time, has no CR (CRLF is rejected) and
#   no NUL; its nodes ($3,
#   $4 and the nodes of $9 and $10) are below n_nodes and $3-$4 is one of `links`; without a
#   fingerprint (hand-made inputs), the stream reaches t_end within one event gap; every packet's 'r' on the measured link comes exactly
#   (within the trace's 1 us rounding, 2e-6 s) size * 8 / link_bps + link_delay after its '-'
#   there (a stream of a scenario with another capacity or delay fails); the measured link
#   carried traffic whenever the sources sent: data packets sent in [t0, t1] imply '-' events
#   on it in [t0, t1].
# Output: the metrics of the five families, "name<TAB>value" lines in LC_ALL=C order.
# Exit: 0 - metrics printed; 2 - a parameter missing or out of range (nothing read, nothing
#   printed); 3 - a line is malformed or an accounting check failed (the reasons on stderr, at
#   most 10, then the count): nothing printed.

@include "metrics.awk"
@include "integrity.awk"
@include "accounting.awk"
@include "delay.awk"
@include "throughput.awk"
@include "loss.awk"
@include "link.awk"
# The parameters checked (usage: exit 2), tcp_hdr's default, the end line wanted, integ_init.
@include "wired_params.awk"

BEGIN { link_init() }

# Line 1: the run's header (skipped once checked; a missing one fails, and the line is read).
FNR == 1 && integ_header() { next }
# Line 2 may be the scenario program's version and parameters ("#@ PROGRAM VERSION name=value
# ..."; the ns-3 programs write it): skipped, it is for the reader of the stream.
FNR == 2 && /^#@ / { next }
# The scenario's last line "# end" (integ_footer): checked and skipped; nothing may follow it.
INTEG_ENDED { fail("a line after the end line \"# end\" (appended?): " substr($0, 1, 80)); next }
/^#/ { integ_footer(); next }

NF != 12 { fail("malformed or truncated line (" NF " fields, 12 expected): " substr($0, 1, 80)); next }

# The line belongs to the stream and to the scenario (lib/integrity.awk's checks; the common
# cases inline for speed: a plain decimal time, later than the last one or equal to it).
{
    tm = $2 + 0
    if ($2 !~ /^[0-9]+\.?[0-9]*$/ || index($0, "\r") || index($0, "\0") || tm < INTEG_LAST) {
        if (!integ_line($2)) next
    } else {
        INTEG_LINES++
        if (tm > INTEG_LAST) {
            if (INTEG_LAST >= 0 && tm - INTEG_LAST > INTEG_GAP) INTEG_GAP = tm - INTEG_LAST
            INTEG_LAST = tm; INTEG_FIRST = $0; INTEG_N = 1
            if (tm > t_end) { fail("time " $2 " after the scenario's end " t_end); next }
        } else if (!integ_same()) next
    }
    src = int($9); dst = int($10)
    # $3 and $4 are nodes of the scenario when their link is one of it: only the addresses' here.
    if (n_nodes != "" && (src >= INTEG_NN || dst >= INTEG_NN || (links == "" && ($3 >= INTEG_NN || $4 >= INTEG_NN)))) {
        fail("node not in the scenario (" n_nodes " nodes): " substr($0, 1, 80)); next
    }
    if (links != "" && !(($3, $4) in INTEG_LINKS)) { fail("link " $3 "-" $4 " is not one of the scenario's"); next }
}

# Per line, the cheap state updates are inline (their functions are named in the comments);
# a packet's send, receipt and drop call the families.
{
    ev = $1; type = $5; uid = $12
    if (tm > ACCT_TEND) ACCT_TEND = tm                              # acct_clock(tm)
    if (!(type in LOSS_SENT)) loss_type(type)
    if (type != "ack" && (uid in ACCT_FLY)) ACCT_FLY[uid] = tm      # acct_seen(uid, tm)
    if ($3 == link_from && $4 == link_to) {
        link_event(ev, uid, tm, $6)
        if (link_delay != "") {
            if (ev == "-") WIRED_DEQ[uid] = tm
            else if (ev == "r") wired_transit(uid, tm, $6)
        }
    }
    if (ev == "+") {
        if (!(uid in WIRED_SENT) && $3 == src) wired_send(uid, type, tm, 1)
        LOSS_Q[uid, $3, $4] = 1                                     # loss_enq(uid, link)
    } else if (ev == "-") {
        delete LOSS_Q[uid, $3, $4]                                  # loss_deq(uid, link)
    } else if (ev == "r") {
        delete LOSS_Q[uid, $3, $4]                                  # loss_arrive(uid, link)
        if (type != "ack" && $4 == dst) {
            acct_recv(uid); delay_recv(uid, type, tm); tput_recv(type, $8, $11, $6, tm, uid)
        }
    } else if (ev == "d") {
        if (!(uid in WIRED_SENT) && $3 == src) wired_send(uid, type, tm, 0)
        loss_drop(uid, $3 SUBSEP $4, type, tm)
        if (type != "ack") { acct_drop(uid); delay_drop(uid) }
        delete LINK_FRAC[uid]
    } else fail("unknown event '" substr(ev, 1, 20) "' (+ - r d expected)")
}

# An 'r' on the measured link: the packet took its transmission time plus the link's delay.
function wired_transit(uid, t, size,    want) {
    if (!(uid in WIRED_DEQ)) return
    want = size * 8 / link_bps + link_delay
    if (t - WIRED_DEQ[uid] - want > 2e-6 || want - (t - WIRED_DEQ[uid]) > 2e-6)
        fail(sprintf("packet %s crossed the measured link in %.6f s, the scenario's link takes %.6f s (a stream of another scenario?)", uid, t - WIRED_DEQ[uid], want))
    delete WIRED_DEQ[uid]
}

# The packet's first '+' (enq 1) or 'd' (enq 0) at the node of its source address.
function wired_send(uid, type, t, enq) {
    WIRED_SENT[uid] = 1
    loss_send(type, t)
    if (type != "ack") { acct_send(uid, t); if (enq) delay_send(uid, t) }
}

END {
    if (WIRED_USAGE) exit 2
    integ_end()
    for (ty in LOSS_SENT) if (ty != "ack") wsent += LOSS_SENT[ty]
    if (wsent > 0 && LINK_DEP == 0)
        fail("data packets were sent in [t0, t1] but the measured link " link_from "-" link_to " carried none")
    if (acct_end(t_end, max_age)) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }
    delay_report(); tput_report(); loss_report(); link_report()
    metrics_print()
}
