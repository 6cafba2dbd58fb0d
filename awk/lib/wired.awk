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
#   the run's header text (lib/integrity.awk, integ_header; empty: no header required); sizes -
#   "type:bytes,...", the sizes each listed type may have; hops - "a-b:queue_s:wire_s,...",
#   each link's longest queue wait and wire time; wire_drops - "a-b,...", the links whose
#   receiver may drop a packet after its wire (an error model at the link's tail; empty: none)
#   (lib/wired_params.awk).
# Integrity (each failure names the file, the line and the rule; lib/integrity.awk): line 1 is
#   the run's header "# " fingerprint (the scenario writes it; another study, seed, end or run
#   fails, naming the field), line 2 may be "#@ " and the scenario program's version and
#   parameters (the ns-3 programs write it; summed, else skipped), the last line is "# end
#   LINES SUM" (StreamSum writes it after the simulator flushed the trace; lib/streamsum.awk
#   recomputes count and checksum over the header and every line; with a fingerprint a stream
#   without it was cut short, and a line after it fails), every other line has 12 fields of
#   their types (wired_field), an event + - r or d, a numeric time that never decreases and is not after
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
# ..."; the ns-3 programs write it): summed and skipped, it is for the reader of the stream.
FNR == 2 && /^#@ / { ssum_line(); next }
# The stream's last line "# end LINES SUM" (integ_footer): checked and skipped; nothing may follow it.
INTEG_ENDED { fail("a line after the end line \"# end\" (appended?): " substr($0, 1, 80)); next }
/^#/ { integ_footer(); next }

NF != 12 { ssum_line(); fail("malformed or truncated line (" NF " fields, 12 expected): " substr($0, 1, 80)); next }

# Every field's type where it is read: one pattern for the whole line (single spaces; the event
# one of + - r d; nodes, size and uid unsigned integers; flow id and sequence number integers;
# addresses node.port); the time is checked below. wired_field names the field that fails.
{ ssum_line() }
$0 !~ /^[-+rd] [^ ]+ [0-9]+ [0-9]+ [A-Za-z][A-Za-z0-9_]* [0-9]+ [-A-Za-z]+ -?[0-9]+ [0-9]+(\.-?[0-9]+)+ [0-9]+(\.-?[0-9]+)+ -?[0-9]+ [0-9]+$/ { wired_field(); next }

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
    # The packet's story (wired_story): its first event at its source; then, hop by hop, '+'
    # (queued on a link), '-' (on its wire), 'r' (at the far node), until an 'r' at its
    # destination or a 'd'; the same type, size, flags, flow, addresses and sequence number
    # at every event. WIRED_ST[uid]: 0 done; L*4+1 queued on link L = from*4096+to, L*4+2 on
    # its wire; n*4+3 received at node n (not its destination).
    if (uid in WIRED_ST) {
        st = WIRED_ST[uid]
        p = length($1) + length($2) + length($3) + length($4) + 5
        if (st == 0 || substr($0, p, length($0) - p - length(uid)) != WIRED_ID[uid]) { wired_story(st, p); next }
    } else {
        st = -1; WIRED_NUID++
        if (uid + 0 > WIRED_MAXUID) WIRED_MAXUID = uid + 0
        p = length($1) + length($2) + length($3) + length($4) + 5
        WIRED_ID[uid] = substr($0, p, length($0) - p - length(uid))
        if ($3 != src) { wired_story(st, p); next }
        if (WIRED_NSIZE && (type in WIRED_STYPE) && !((type, $6) in WIRED_SIZE)) fail("packet " uid ": size " $6 " is not one the scenario sends as " type " (" sizes ")")
    }
    L = $3 * 4096 + $4
    WIRED_T[uid] = tm
    if (ev == "+") { if (st != -1 && st != $3 * 4 + 3) { wired_story(st, p); next }; WIRED_ST[uid] = L * 4 + 1 }
    else if (ev == "-") { if (st != L * 4 + 1) { wired_story(st, p); next }; WIRED_ST[uid] = L * 4 + 2 }
    else if (ev == "r") {
        if (st != L * 4 + 2) { wired_story(st, p); next }
        if ($4 == dst) { WIRED_ST[uid] = 0; delete WIRED_ID[uid]; delete WIRED_T[uid] } else WIRED_ST[uid] = $4 * 4 + 3
    } else {
        if (st != -1 && st != L * 4 + 1 && st != $3 * 4 + 3 && !(st == L * 4 + 2 && (($3, $4) in WIRED_WDROP))) { wired_story(st, p); next }
        WIRED_ST[uid] = 0; delete WIRED_ID[uid]; delete WIRED_T[uid]
    }
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
        if (st == -1) wired_send(uid, type, tm, 1)
        LOSS_Q[uid, $3, $4] = 1                                     # loss_enq(uid, link)
    } else if (ev == "-") {
        delete LOSS_Q[uid, $3, $4]                                  # loss_deq(uid, link)
    } else if (ev == "r") {
        delete LOSS_Q[uid, $3, $4]                                  # loss_arrive(uid, link)
        if (type != "ack" && $4 == dst) {
            acct_recv(uid); delay_recv(uid, type, tm); tput_recv(type, $8, $11, $6, tm, uid)
        }
    } else if (ev == "d") {
        if (st == -1) wired_send(uid, type, tm, 0)
        loss_drop(uid, $3 SUBSEP $4, type, tm)
        if (type != "ack") { acct_drop(uid); delay_drop(uid) }
        delete LINK_FRAC[uid]
    } else fail("unknown event '" substr(ev, 1, 20) "' (+ - r d expected)")
}

# A line whose fields are not of their type: the first such field, named.
function wired_field() {
    if ($1 !~ /^[-+rd]$/) fail("unknown event '" substr($1, 1, 20) "' (+ - r d expected): " substr($0, 1, 80))
    else if ($3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/) fail("link ends " substr($3, 1, 20) " " substr($4, 1, 20) " are not node numbers: " substr($0, 1, 80))
    else if ($5 !~ /^[A-Za-z][A-Za-z0-9_]*$/) fail("packet type '" substr($5, 1, 20) "' is not a name: " substr($0, 1, 80))
    else if ($6 !~ /^[0-9]+$/) fail("size '" substr($6, 1, 20) "' is not a number of bytes: " substr($0, 1, 80))
    else if ($7 !~ /^[-A-Za-z]+$/) fail("flags '" substr($7, 1, 20) "' are not ns-2's: " substr($0, 1, 80))
    else if ($8 !~ /^-?[0-9]+$/) fail("flow id '" substr($8, 1, 20) "' is not an integer: " substr($0, 1, 80))
    else if ($9 !~ /^[0-9]+(\.-?[0-9]+)+$/ || $10 !~ /^[0-9]+(\.-?[0-9]+)+$/) fail("addresses '" substr($9, 1, 20) "' '" substr($10, 1, 20) "' are not node.port: " substr($0, 1, 80))
    else if ($11 !~ /^-?[0-9]+$/) fail("sequence number '" substr($11, 1, 20) "' is not an integer: " substr($0, 1, 80))
    else if ($12 !~ /^[0-9]+$/) fail("uid '" substr($12, 1, 20) "' is not an unsigned integer: " substr($0, 1, 80))
    else fail("malformed line (fields not separated by single spaces): " substr($0, 1, 80))
}

# A line that breaks its packet's story (st: the state before it, -1 unseen; p: where field 5
# begins): which rule, and where the packet was.
function wired_story(st, p,    where) {
    if (st == 0) { fail("packet " uid ": '" ev "' on " $3 "-" $4 " after it was received at its destination or dropped (a drop turned into a receipt, or a line added?)"); return }
    if (st > 0 && substr($0, p, length($0) - p - length(uid)) != WIRED_ID[uid]) {
        fail("packet " uid " changes between its events: '" substr($0, p, length($0) - p - length(uid)) "', first seen as '" WIRED_ID[uid] "' (type size flags flow src dst seq)"); return
    }
    if (st == -1) where = "not yet seen (its first event must be at its source node " src ")"
    else if (st % 4 == 3) where = "received at node " int(st / 4)
    else where = (st % 4 == 1 ? "queued on " : "on the wire of ") int(st / 16384) "-" int(st / 4) % 4096
    fail("packet " uid ": '" ev "' on " $3 "-" $4 " but it was " where " (a receipt turned into a drop, a line lost, or a line of another packet?)")
}

# In END: every packet whose story has no end (neither received at its destination nor
# dropped), ACKs included, is where it can still be: in a link's queue within that queue's
# longest wait of the trace's end, on a wire within its transmission and delay, at a router
# not at all (ns-2 forwards in the same instant; 2 us of rounding); without `hops`, within
# max_age (the path's longest transit). And ns-2 numbers the packets it sends 0, 1, 2, ...
# with every one traced, so the uids seen are all of 0 .. the largest (a packet whose only
# line was deleted leaves a gap).
function wired_story_end(    u, n, st, a, b, lim, where) {
    for (u in WIRED_T) {
        st = WIRED_ST[u]; a = int(st / 16384); b = int(st / 4) % 4096
        if (st % 4 == 3) { lim = 2e-6; where = "received at node " int(st / 4) }
        else if (st % 4 == 1 && ((a, b) in WIRED_HOPQ)) { lim = WIRED_HOPQ[a, b]; where = "queued on " a "-" b }
        else if (st % 4 == 2 && ((a, b) in WIRED_HOPW)) { lim = WIRED_HOPW[a, b]; where = "on the wire of " a "-" b }
        else { lim = max_age; where = "in flight" }
        if (ACCT_TEND - WIRED_T[u] > lim && n++ < 10)
            fail("packet " u " vanished: " where " since " WIRED_T[u] " s, the trace ends at " ACCT_TEND " s, more than " lim " s later (a receipt or drop line lost?)")
    }
    if (fingerprint != "" && WIRED_NUID && WIRED_NUID != WIRED_MAXUID + 1)
        fail("packets 0 .. " WIRED_MAXUID " were sent but " WIRED_NUID " uids appear: " WIRED_MAXUID + 1 - WIRED_NUID " packet(s) have no line (a drop line lost?)")
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
    loss_send(type, t)
    if (type != "ack") { acct_send(uid, t); if (enq) delay_send(uid, t) }
}

END {
    if (WIRED_USAGE) exit 2
    integ_end()
    for (ty in LOSS_SENT) if (ty != "ack") wsent += LOSS_SENT[ty]
    wired_story_end()
    if (wsent > 0 && LINK_DEP == 0)
        fail("data packets were sent in [t0, t1] but the measured link " link_from "-" link_to " carried none")
    if (acct_end(t_end, max_age)) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }
    delay_report(); tput_report(); loss_report(); link_report()
    metrics_print()
}
