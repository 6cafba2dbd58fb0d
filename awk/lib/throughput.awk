# throughput.awk - (library) throughput and goodput at the receiver, per traffic type.
#
# Reads: no field. A trace reader (e.g. lib/wired.awk) takes the values from its lines and
#        calls the functions below once per event; needs lib/metrics.awk (metric).
# Globals read: t0, t1 - the measurement window (s, t1 > t0); tcp_hdr - header bytes included
#               in a tcp packet's trace size (ns-2: 40; 40 when unset).
# Calls:
#   tput_recv(type, flow, seq, size, t, uid)   a receipt: an 'r' event of a non-ack packet at
#                        the node of its destination address (per-hop 'r' events at routers are
#                        not receipts), of type type, flow id flow, sequence number seq, trace
#                        size size (bytes, headers included), at time t (s), packet uid (its
#                        LINK_FRAC[uid] from lib/link.awk is read and deleted)
#   tput_report()        in END: records the metrics
# The bits of a receipt inside the window (exact, so that the rates of the packets that crossed
# the measured link sum to at most its capacity): a packet that crossed the measured link
# counts the fraction LINK_FRAC[uid] of its bits that the link transmitted within [t0, t1]
# (lib/link.awk: its transmission there, clipped to the window); a packet that did not cross it
# counts whole when its receipt time is in [t0, t1]. "in-window part" below is that fraction
# (0 or 1 for the latter) times the size.
# Definitions (for each type T with a receipt at any time):
#   T_rx_bytes          sum of the in-window parts of type-T receipts (retransmitted copies
#                       included), in bytes (a real number: a receipt may count in part)
#   T_throughput_kbps   T_rx_bytes * 8 / (t1 - t0) / 1000
#   T_goodput_kbps      the same in-window part of the payload of the first receipt of each
#                       (flow id, sequence number) * 8 / (t1 - t0) / 1000; payload = size -
#                       tcp_hdr for tcp, size otherwise. A duplicate (same flow and sequence
#                       number received again) adds nothing. Only for types whose packets carry
#                       sequence numbers: a type with a negative one (ns-2's ping: -1) has none.
#   T_rx_pkts           number of type-T receipts with a nonzero in-window part

function tput_recv(type, flow, seq, size, t, uid,    key, pay, frac) {
    if (!(type in TPUT_RX)) { TPUT_RX[type] = 0; TPUT_GOOD[type] = 0; TPUT_PK[type] = 0 }
    if (uid in LINK_FRAC) { frac = LINK_FRAC[uid]; delete LINK_FRAC[uid] }
    else frac = (t >= t0 && t <= t1) ? 1 : 0
    if (seq < 0) TPUT_NOSEQ[type] = 1
    key = flow SUBSEP seq
    if (key in TPUT_DELIVERED) {
        if (frac > 0) { TPUT_RX[type] += size * frac; TPUT_PK[type]++ }
        return
    }
    TPUT_DELIVERED[key] = 1
    if (frac > 0) {
        TPUT_RX[type] += size * frac; TPUT_PK[type]++
        pay = (type == "tcp") ? size - (tcp_hdr == "" ? 40 : tcp_hdr) : size
        if (pay > 0) TPUT_GOOD[type] += pay * frac
    }
}

function tput_report(    t, span) {
    span = t1 - t0
    for (t in TPUT_RX) {
        metric(t "_rx_pkts", sprintf("%d", TPUT_PK[t]))
        metric(t "_rx_bytes", sprintf("%.3f", TPUT_RX[t]))
        metric(t "_throughput_kbps", sprintf("%.6f", TPUT_RX[t] * 8 / span / 1000))
        if (!(t in TPUT_NOSEQ)) metric(t "_goodput_kbps", sprintf("%.6f", TPUT_GOOD[t] * 8 / span / 1000))
    }
}
