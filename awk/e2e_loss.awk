#!/usr/bin/gawk -f
# e2e_loss.awk - where one TCP flow's data packets end up, its delivery ratio (the vegas study's
# "network efficiency"), and the accounting check, on a wired-cum-wireless trace.
# Needs mixed.awk: gawk -f mixed.awk -f e2e_loss.awk.
#
# Reads (through mixed.awk's parse_line): wired $1 event, $2 time, $3 from node, $4 to node, $5
#  type, $8 flow id, $11 sequence number, $12 uid and the field count; wireless $1 event and -t,
#  -Ni, -Nl, -It, -If, -Ii, -Ps.
# Parameters (-v): t0, t1 - measurement window (s, t1 > t0); t_end - simulated end (s); max_age -
#                  how long before t_end a packet still in flight may have been seen last (s);
#                  src, dst - sender and receiver nodes; fid - the TCP agent's flow id; traced -
#                  the fully traced links as "a-b,c-d" (every other wired link traces drops only).
# Data packets: type "tcp", flow id fid; one uid = one transmission (retransmissions are new uids).
#   sent       first '+' of the uid on a wired link leaving src
#   delivered  first receipt by the agent at dst (wireless 'r' on layer AGT at dst, or wired 'r'
#              into dst)
#   dropped    a drop line ('d' on a wired queue, 'd'/'D' at a wireless node: IFQ, RTR CBK after the
#              802.11 MAC gave up, ARP, ...) and never delivered. A packet delivered and then
#              dropped (the MAC gave up on a frame whose 802.11 ACK was lost) counts as delivered.
#   in flight  neither, and seen within max_age of t_end
#   stranded   neither, and last seen earlier: held by a node until the end (DSDV buffers packets
#              for a destination it has no route to; ns-2 frees some without a drop line) - lost.
# Definitions (packets sent in [t0, t1]):
#   tcp_sent_pkts             sent packets (retransmissions included)
#   tcp_retransmitted_pkts    of those, packets whose sequence number had been sent before
#   tcp_delivered_pkts        delivered
#   tcp_drops_total           dropped (= tcp_drops_wired + tcp_drops_wireless)
#   tcp_drops_wired           dropped at a wired queue
#   tcp_drops_wireless        dropped at a wireless node
#   tcp_stranded_pkts         stranded
#   tcp_lost_pkts             tcp_drops_total + tcp_stranded_pkts
#   tcp_efficiency_pct        100 * delivered / (delivered + lost): the delivery ratio, packets
#                             still in flight at t_end excluded ("network efficiency")
#   tcp_loss_rate             lost / (delivered + lost)
#   tcp_drops_after_delivery  delivered packets that also have a drop line
# Accounting (every packet sent during the whole run): acct_sent = acct_received + acct_dropped +
# acct_in_flight + acct_stranded; acct_trace_end is the last event's time; acct_ok 1 when every
# check passed, else the script prints why and exits 3. Checks: no truncated line; at least one
# data packet sent; no data packet received, dropped or seen that src never sent; no packet
# stranded in a queue or on the wire of a fully traced link (its last event there a '+' or '-');
# the trace reaches t_end - max_age.
BEGIN {
    OFS = "\t"; bad = 0; tend = 0
    if (t0 == "" || t1 == "" || t1 <= t0 || t_end == "" || max_age == "" || src == "" || dst == "" || fid == "") {
        print "e2e_loss.awk: set -v t0=... -v t1=... -v t_end=... -v max_age=... -v src=... -v dst=... -v fid=... [-v traced=a-b,...]" > "/dev/stderr"
        usage = 1; exit 2
    }
    nt = split(traced, tl, ",")
    for (i = 1; i <= nt; i++) full[tl[i]] = 1
}
function fail(msg) { if (bad < 10) print "e2e_loss.awk: line " NR ": " msg > "/dev/stderr"; bad++ }
{
    ok = parse_line()
    if (MALFORMED) { fail("malformed or truncated line: " $0); next }
    if (!ok) next
    if (T > tend) tend = T
    if (PTYPE != "tcp" || FID != fid) next
    if (!(UID in sent)) {
        if (!WIRELESS && EV == "+" && FROM == src) {
            sent[UID] = T; nsent++
            if (SEQ in seqsent) rtx[UID] = 1
            seqsent[SEQ] = 1
        } else {
            fail("data packet " UID " seen (" EV ") but never sent by node " src)
            next
        }
    }
    last[UID] = T
    where[UID] = WIRELESS ? ("node " NODE " " LAYER) : (FROM "-" TO " " EV)
    if (EV == "r") {
        if ((WIRELESS && NODE == dst && LAYER == "AGT") || (!WIRELESS && TO == dst))
            if (!(UID in delivered)) delivered[UID] = T
    } else if (EV == "d" || EV == "D") {
        if (!(UID in dropped)) {
            dropped[UID] = T
            dplace[UID] = WIRELESS ? "wireless" : "wired"
        }
    }
}
END {
    if (usage) exit 2
    if (nsent == 0) fail("no data packet of flow " fid " left node " src)
    if (tend < t_end - max_age) fail(sprintf("trace ends at %.6f s, before t_end - max_age = %.6f s", tend, t_end - max_age))
    for (u in sent) {
        inw = (sent[u] >= t0 && sent[u] <= t1)
        if (u in delivered) {
            a_recv++
            if (inw) { w_deliv++; if (u in dropped) w_after++ }
        } else if (u in dropped) {
            a_drop++
            if (inw) { w_drop++; if (dplace[u] == "wired") w_dwired++; else w_dwless++ }
        } else if (last[u] >= t_end - max_age) {
            a_fly++
        } else {
            a_strand++
            if (inw) w_strand++
            split(where[u], wl, " ")
            if ((wl[1] in full) && (wl[2] == "+" || wl[2] == "-"))
                fail(sprintf("packet %s stranded on fully traced link %s (last '%s' at %.6f s)", u, wl[1], wl[2], last[u]))
        }
        if (inw) { w_sent++; if (u in rtx) w_rtx++ }
    }
    lost = w_drop + w_strand
    printf "tcp_sent_pkts\t%d\n", w_sent
    printf "tcp_retransmitted_pkts\t%d\n", w_rtx
    printf "tcp_delivered_pkts\t%d\n", w_deliv
    printf "tcp_drops_total\t%d\n", w_drop
    printf "tcp_drops_wired\t%d\n", w_dwired
    printf "tcp_drops_wireless\t%d\n", w_dwless
    printf "tcp_stranded_pkts\t%d\n", w_strand
    printf "tcp_lost_pkts\t%d\n", lost
    if (w_deliv + lost > 0) {
        printf "tcp_efficiency_pct\t%.6f\n", 100 * w_deliv / (w_deliv + lost)
        printf "tcp_loss_rate\t%.6f\n", lost / (w_deliv + lost)
    } else {
        printf "tcp_efficiency_pct\t\ntcp_loss_rate\t\n"
    }
    printf "tcp_drops_after_delivery\t%d\n", w_after
    printf "acct_sent\t%d\n", nsent
    printf "acct_received\t%d\n", a_recv
    printf "acct_dropped\t%d\n", a_drop
    printf "acct_in_flight\t%d\n", a_fly
    printf "acct_stranded\t%d\n", a_strand
    printf "acct_trace_end\t%.6f\n", tend
    if (bad) { print "e2e_loss.awk: " bad " check(s) failed" > "/dev/stderr"; exit 3 }
    printf "acct_ok\t1\n"
}
