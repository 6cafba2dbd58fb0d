# throughput.awk - (library) throughput and goodput at the receiver, per traffic type.
#
# Reads: no field. A trace reader (e.g. lib/wired.awk) takes the values from its lines and
#        calls the functions below once per event; needs lib/metrics.awk (metric).
# Globals read: t0, t1 - the measurement window (s, t1 > t0); tcp_hdr - header bytes included
#               in a tcp packet's trace size (ns-2: 40; 40 when unset).
# Calls:
#   tput_recv(type, flow, seq, size, t)   a receipt: an 'r' event of a non-ack packet at the
#                        node of its destination address (per-hop 'r' events at routers are not
#                        receipts), of type type, flow id flow, sequence number seq, trace size
#                        size (bytes, headers included), at time t (s)
#   tput_report()        in END: records the metrics
# Definitions (receipts with time in [t0, t1]; for each type T with a receipt at any time):
#   T_rx_bytes          sum of trace sizes of type-T receipts (retransmitted copies included)
#   T_throughput_kbps   T_rx_bytes * 8 / (t1 - t0) / 1000
#   T_goodput_kbps      payload bytes of the first receipt of each (flow id, sequence number)
#                       * 8 / (t1 - t0) / 1000; payload = size - tcp_hdr for tcp, size otherwise.
#                       A duplicate (same flow and sequence number received again) adds nothing.
#   T_rx_pkts           number of type-T receipts

function tput_recv(type, flow, seq, size, t,    key, pay) {
    if (!(type in TPUT_RX)) { TPUT_RX[type] = 0; TPUT_GOOD[type] = 0; TPUT_PK[type] = 0 }
    key = flow SUBSEP seq
    if (key in TPUT_DELIVERED) {
        if (t >= t0 && t <= t1) { TPUT_RX[type] += size; TPUT_PK[type]++ }
        return
    }
    TPUT_DELIVERED[key] = 1
    if (t >= t0 && t <= t1) {
        TPUT_RX[type] += size; TPUT_PK[type]++
        pay = (type == "tcp") ? size - (tcp_hdr == "" ? 40 : tcp_hdr) : size
        if (pay > 0) TPUT_GOOD[type] += pay
    }
}

function tput_report(    t, span) {
    span = t1 - t0
    for (t in TPUT_RX) {
        metric(t "_rx_pkts", sprintf("%d", TPUT_PK[t]))
        metric(t "_rx_bytes", sprintf("%d", TPUT_RX[t]))
        metric(t "_throughput_kbps", sprintf("%.6f", TPUT_RX[t] * 8 / span / 1000))
        metric(t "_goodput_kbps", sprintf("%.6f", TPUT_GOOD[t] * 8 / span / 1000))
    }
}
