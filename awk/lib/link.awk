# link.awk - (library) utilisation and queue occupancy of one link (the bottleneck).
#
# Reads: no field. A trace reader (e.g. lib/wired.awk) takes the values from its lines and
#        calls the functions below for every event on the link; needs lib/metrics.awk (metric).
# Globals read: t0, t1 - the measurement window (s, t1 > t0); link_bps - the link's capacity
#               in bit/s.
# Calls:
#   link_init()                   in BEGIN, after the parameters are checked
#   link_event(ev, uid, t, size)  an event on the link (from its first end to its second): ev
#                                 "+", "-", "d" (anything else only moves the clock), of the
#                                 packet uid, at time t (s), of size bytes
#   link_report()                 in END: records the metrics
# Definitions:
#   link_utilisation     bits transmitted on the link within [t0, t1], divided by
#                        link_bps * (t1 - t0): a packet's transmission lasts size * 8 / link_bps
#                        from its '-' on the link, or from the end of the previous packet's if
#                        that is later (the link sends one packet at a time; this also absorbs
#                        the trace's 1 us rounding of the '-' times); only the part of it inside
#                        [t0, t1] counts, so a packet straddling t0 or t1 counts in part and the
#                        utilisation is at most 1, exactly
#   LINK_FRAC[uid]       (not a metric) that part as a fraction of the packet, for every packet
#                        with a '-' on the link, for lib/throughput.awk (which deletes it)
#   link_queue_avg_pkts  time average over [t0, t1] of the queue length in packets, where the
#                        queue grows by one at each '+' on the link and shrinks by one at each
#                        '-' and at each 'd' of a packet that had a '+' there but no '-' (a queue
#                        drop); link-head drops (error model) never entered the queue
#   link_queue_max_pkts  largest queue length held for a positive time within [t0, t1] (a '+'
#                        and a '-' at the same instant do not count as a longer queue)
#   link_departed_pkts   '-' events on the link in [t0, t1]

function link_init() { LINK_Q = 0; LINK_QMAX = 0; LINK_AREA = 0; LINK_LAST = t0; LINK_BITS = 0; LINK_DEP = 0; LINK_FREE = 0 }

# The queue held LINK_Q packets from LINK_LAST to now (clipped to t1).
function link_advance(now) {
    if (now > t1) now = t1
    if (now > LINK_LAST) { LINK_AREA += LINK_Q * (now - LINK_LAST); if (LINK_Q > LINK_QMAX) LINK_QMAX = LINK_Q; LINK_LAST = now }
}

function link_event(ev, uid, t, size,    now) {
    if (t >= t0) {  # link_advance(t), inline: this runs on every event of the link
        now = t > t1 ? t1 : t
        if (now > LINK_LAST) { LINK_AREA += LINK_Q * (now - LINK_LAST); if (LINK_Q > LINK_QMAX) LINK_QMAX = LINK_Q; LINK_LAST = now }
    }
    if (ev == "+") { LINK_Q++; LINK_INQ[uid] = 1 }
    else if (ev == "-") {
        if (uid in LINK_INQ) { LINK_Q--; delete LINK_INQ[uid] }
        if (t >= t0 && t <= t1) LINK_DEP++
        link_transmit(uid, t, size)
    }
    else if (ev == "d" && (uid in LINK_INQ)) { LINK_Q--; delete LINK_INQ[uid] }
}

# The packet's transmission: from max(t, LINK_FREE) for size * 8 / link_bps seconds.
function link_transmit(uid, t, size,    tx, a, b, in_a, in_b) {
    tx = size * 8 / link_bps
    a = (t > LINK_FREE) ? t : LINK_FREE; b = a + tx; LINK_FREE = b
    in_a = (a > t0) ? a : t0; in_b = (b < t1) ? b : t1
    if (in_b > in_a) { LINK_BITS += link_bps * (in_b - in_a); LINK_FRAC[uid] = (in_b - in_a) / tx }
    else LINK_FRAC[uid] = 0
}

function link_report() {
    link_advance(t1)
    metric("link_utilisation", sprintf("%.6f", LINK_BITS / (link_bps * (t1 - t0))))
    metric("link_queue_avg_pkts", sprintf("%.6f", LINK_AREA / (t1 - t0)))
    metric("link_queue_max_pkts", sprintf("%d", LINK_QMAX))
    metric("link_departed_pkts", sprintf("%d", LINK_DEP))
}
