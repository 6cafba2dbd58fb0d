# delay.awk - (library) one-way end-to-end delay of data packets, per traffic type.
#
# Reads: no field. A trace reader (e.g. lib/wired.awk) takes the values from its lines and
#        calls the functions below once per event; needs lib/metrics.awk (metric).
# Globals read: t0, t1 - the measurement window (s).
# Calls (data packets only, i.e. type not "ack"; ns-2 gives every transmission, retransmissions
# included, its own uid, so each uid is one packet sent once):
#   delay_send(uid, t)         the packet's send: its first '+' (enqueue) event at the node of
#                              its source address, at time t
#   delay_recv(uid, type, t)   its receipt: an 'r' event at the node of its destination address
#                              (per-hop 'r' events at routers are not receipts), at time t; only
#                              the first receipt of a sent packet counts
#   delay_drop(uid)            a 'd' event of the packet: dropped packets have no delay
#   delay_report()             in END: records the metrics
# (lib/wired.awk calls delay_send on a packet's first event at its source when that is a '+';
# a packet whose first event there is a drop never has a receipt in a trace that passes the
# accounting check, so this is the same send time.)
# Definitions (only packets sent within [t0, t1] count; for each type T with such a packet):
#   T_delay_pkts      number of packets sent in the window and received at their destination
#   T_delay_ms_mean   mean of (receipt time - send time) over those packets, in ms
#   T_delay_ms_max    largest such delay, in ms
#   T_delay_ms_p95    95th percentile (nearest rank) of those delays, in ms

function delay_send(uid, t) { DELAY_AT[uid] = t }

function delay_recv(uid, type, t,    ts, ms) {
    if (!(uid in DELAY_AT)) return
    ts = DELAY_AT[uid]
    delete DELAY_AT[uid]
    if (ts >= t0 && ts <= t1) {
        ms = (t - ts) * 1000.0
        DELAY_N[type]++
        DELAY_SUM[type] += ms
        if (!(type in DELAY_MAX) || ms > DELAY_MAX[type]) DELAY_MAX[type] = ms
        DELAY_ALL[type, DELAY_N[type]] = ms
    }
}

function delay_drop(uid) { delete DELAY_AT[uid] }

function delay_report(    t, i, n, v, rank) {
    for (t in DELAY_N) {
        n = DELAY_N[t]
        delete v
        for (i = 1; i <= n; i++) v[i] = DELAY_ALL[t, i]
        asort(v)
        rank = int(0.95 * n + 0.999999); if (rank < 1) rank = 1
        metric(t "_delay_pkts", sprintf("%d", n))
        metric(t "_delay_ms_mean", sprintf("%.6f", DELAY_SUM[t] / n))
        metric(t "_delay_ms_max", sprintf("%.6f", DELAY_MAX[t]))
        metric(t "_delay_ms_p95", sprintf("%.6f", v[rank]))
    }
}
