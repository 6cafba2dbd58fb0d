# accounting.awk - (library) every data packet sent is received, dropped, or in flight at the end.
#
# Reads: no field. A trace reader (e.g. lib/wired.awk) takes the values from its lines and
#        calls the functions below once per event; needs lib/metrics.awk (fail, metric).
# Calls (data packets only: ACKs are not accounted; one uid = one packet, a retransmission is a
# new uid):
#   acct_clock(t)        every trace line (any packet): its time t (s) (inline for speed:
#                        if (t > ACCT_TEND) ACCT_TEND = t)
#   acct_send(uid, t)    the packet's first event at its source node ('+', or a drop there),
#                        at time t
#   acct_seen(uid, t)    any other event of the packet, at time t: the last one is remembered
#                        while the packet is in flight (a reader may do this inline for speed:
#                        if (uid in ACCT_FLY) ACCT_FLY[uid] = t)
#   acct_recv(uid)       an 'r' at the node of the packet's destination address
#   acct_drop(uid)       a 'd' of the packet, anywhere
#   acct_end(t_end, max_age)   in END, after the last line: the final checks, then the metrics;
#                        returns FAILED (0: every check passed)
#   t_end - the simulated end time (s); max_age - how long before the trace's end a packet
#   still in flight may have been seen last (s).
# Definitions (the metrics acct_end records):
#   acct_sent        packets with an event at their source node ('+', or a drop there)
#   acct_received    packets with an 'r' at the node of their destination address
#   acct_dropped     packets with a 'd' event anywhere
#   acct_in_flight   acct_sent - acct_received - acct_dropped
#   acct_trace_end   time of the last event in the trace
#   acct_ok          1 when every check passed (recorded only then)
# Checks (each failure goes through fail()): no packet received or dropped that was never sent;
#   no packet received or dropped twice (or received after its drop, ...); every packet in
#   flight at the end was seen within max_age of the trace's end; the trace reaches
#   t_end - max_age; the trace is not empty. (The reader adds its own, e.g. malformed lines.)

function acct_clock(t) { if (t > ACCT_TEND) ACCT_TEND = t }

# ACCT_FLY[uid] = last time seen, for packets sent and not yet received or dropped;
# ACCT_DONE[uid] = "received" or "dropped".
function acct_send(uid, t) {
    if (!(uid in ACCT_FLY) && !(uid in ACCT_DONE)) { ACCT_FLY[uid] = t; ACCT_SENT++ }
}

function acct_seen(uid, t) { if (uid in ACCT_FLY) ACCT_FLY[uid] = t }

function acct_recv(uid) {
    if (uid in ACCT_DONE) { fail("packet " uid " received after it was " ACCT_DONE[uid]); return }
    if (!(uid in ACCT_FLY)) { fail("packet " uid " received but never sent"); return }
    ACCT_DONE[uid] = "received"; ACCT_RECV++; delete ACCT_FLY[uid]
}

function acct_drop(uid) {
    if (uid in ACCT_DONE) { fail("packet " uid " dropped after it was " ACCT_DONE[uid]); return }
    if (!(uid in ACCT_FLY)) { fail("packet " uid " dropped but never sent"); return }
    ACCT_DONE[uid] = "dropped"; ACCT_DROP++; delete ACCT_FLY[uid]
}

function acct_end(t_end, max_age,    u, inflight) {
    if (FAILED == 0 && NR == 0) fail("empty trace")
    inflight = 0
    for (u in ACCT_FLY) {
        inflight++
        if (ACCT_TEND - ACCT_FLY[u] > max_age)
            fail("packet " u " vanished: last seen at " ACCT_FLY[u] ", trace ends at " ACCT_TEND)
    }
    # Checked with or without an end line: a scenario stopped early, or a stream cut and
    # resealed, ends with a whole end line but short of the end (issue 42). A quiet end at most
    # twice the trace's own largest gap between events (INTEG_GAP, where integrity.awk reads
    # the trace; 0 elsewhere) is sparse traffic or TCP's doubling back-off, not a cut.
    if (ACCT_TEND < t_end - max_age && t_end - ACCT_TEND > 2 * INTEG_GAP)
        fail("trace ends at " ACCT_TEND ", before t_end - max_age = " t_end - max_age " (s; max_age: the path's longest transit) and more than twice the trace's largest gap between events (" INTEG_GAP + 0 " s) before t_end: stopped early or cut short?")
    if (ACCT_SENT + 0 != ACCT_RECV + ACCT_DROP + inflight) fail("sent != received + dropped + in flight")
    metric("acct_sent", sprintf("%d", ACCT_SENT))
    metric("acct_received", sprintf("%d", ACCT_RECV))
    metric("acct_dropped", sprintf("%d", ACCT_DROP))
    metric("acct_in_flight", sprintf("%d", inflight))
    metric("acct_trace_end", sprintf("%.6f", ACCT_TEND))
    if (FAILED == 0) metric("acct_ok", "1")
    return FAILED
}
