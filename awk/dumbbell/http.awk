#!/usr/bin/gawk -f
# http.awk - one run of the dumbbell's HTTP reading (PackMimeHTTP over FullTcp) in one streamed
# pass over its ns-2 trace: every metric of dumbbell.awk (lib/wired.awk, the same definitions and
# checks), and the web objects' - their response times from PackMimeHTTP's two logs, read once
# the trace has ended (ns-2 writes and flushes a log line as each request goes out and each
# response completes, before the scenario's finish closes the trace), and the responses' data
# packets from the trace. The logs' part is lib/http_logs.awk's; http_tally.awk reads the same
# metrics from the patched ns-2's WiredTally stream (trace_level tally).
#
# usage: LC_ALL=C AWKPATH=AWK_DIR/lib gawk -f AWK_DIR/dumbbell/http.awk (dumbbell.awk's -v
#          variables) -v objects_file=http_objects.log -v requests_file=http_requests.log
#          -v servers=0,2,3 -v client=6 TRACE|-
# Output: "name<TAB>value" lines in LC_ALL=C order. Exit: as dumbbell.awk; 2 also when an HTTP
#   parameter is missing, 3 also when a log fails a check below.
#
# Reads, the trace: as dumbbell.awk (lib/wired.awk), and for the responses' packets $1 event,
#   $2 time, $3 from node, $4 to node, $5 type, $6 size, $9 and $10 the addresses, $12 uid.
#   ns-2's FullTcp types every packet of the listening side (the server: responses, its SYN-ACK,
#   its pure ACKs) "ack" and every packet of the client "tcp" (tcp-full.cc, listen()): so
#   wired.awk's tcp_* metrics describe the clients' requests and ACKs, its ack_* metrics the
#   servers' packets (ack_drops_total: the responses' losses on the 4 -> 5 bottleneck).
# Reads, objects_file (PackMimeHTTP set-outfile; one line per completed object, 6 fields):
#   $1 completion time (s), $2 request bytes, $3 response bytes, $4 response time (ms, 3
#   decimals), $5 server address "node.port", $6 active connections.
# Reads, requests_file (PackMimeHTTP set-samples-outfile; one line per request, 4 fields):
#   $1 request time (s), $2 request bytes, $3 response bytes, $4 server address "node.port".
# Parameters (-v): dumbbell.awk's; objects_file, requests_file - the two logs; servers - the
#   server nodes "a,b,..."; client - the client node.
# Definitions (an object's request time: its completion time - its response time; objects and
#   requests count when that time is within [t0, t1]; the response time runs from the client's
#   request - for HTTP/1.0 the connection's SYN goes out then - to the response's last byte
#   received, so it includes the handshake, the request, the server's delay and the response):
#   http_requests            requests sent in the window (requests_file)
#   http_objects             objects requested in the window and completed by the end
#   http_unfinished          http_requests - http_objects (responses still under way at the end)
#   http_response_ms_mean    mean response time of those objects (ms)
#   http_response_ms_p95     95th percentile (nearest rank) of it (ms)
#   http_response_ms_max     largest (ms)
#   http_response_bytes_mean mean response size of those objects (bytes)
#   (the four response metrics are empty when no object completed)
#   http_data_delay_pkts     server packets carrying data (size > tcp_hdr) sent in the window
#                            from a server node and received at their destination
#   http_data_delay_ms_mean  their mean one-way delay, first '+' at the server to the 'r' at the
#                            client (ms; empty without such packets)
#   http_throughput_kbps     bytes (headers included) of server packets carrying data received
#                            at their destination within [t0, t1] * 8 / (t1 - t0) / 1000
#   http_drops_total         'd' events within [t0, t1] of the servers' packets (type ack, any
#                            size, any link): wired.awk's ack_drops_total, the responses' losses
# Checks (each failure names the file and line): each log line has its field count, numeric
#   times that never decrease and are not after t_end, a positive response time no longer than
#   its completion time, a server address whose node is one of `servers`; no object completed
#   that was not requested: http_objects <= http_requests.
BEGIN { PROG = "http.awk" }

# Before lib/wired.awk's END, which prints every metric recorded (these included).
END { if (!WIRED_USAGE && !HTTP_USAGE) { http_logs_report(); http_packets_report() } }

@include "wired.awk"
@include "http_logs.awk"

# A line that passed wired.awk's checks: the servers' data packets, and their drops.
$5 == "ack" && $6 > tcp_hdr { http_packet($1, $2 + 0, $3, $4, int($9), int($10), $12, $6) }
$5 == "ack" && $1 == "d" && $2 + 0 >= t0 && $2 + 0 <= t1 { HTTP_DROPS++ }

function http_packet(ev, t, from, to, src, dst, uid, size) {
    if (ev == "+") {
        if (from == src && (src in HTTP_SERVER) && !(uid in HTTP_AT)) HTTP_AT[uid] = t
    } else if (ev == "r" && to == dst) {
        if (t >= t0 && t <= t1) HTTP_BYTES += size
        if (uid in HTTP_AT) {
            if (HTTP_AT[uid] >= t0 && HTTP_AT[uid] <= t1) { HTTP_DN++; HTTP_DSUM += (t - HTTP_AT[uid]) * 1000.0 }
            delete HTTP_AT[uid]
        }
    } else if (ev == "d") delete HTTP_AT[uid]
}

# The responses' data packets and drops (http_packet's sums): the trace's share of the metrics.
function http_packets_report() {
    metric("http_data_delay_pkts", sprintf("%d", HTTP_DN))
    metric("http_data_delay_ms_mean", HTTP_DN ? sprintf("%.6f", HTTP_DSUM / HTTP_DN) : "")
    metric("http_drops_total", sprintf("%d", HTTP_DROPS))
    metric("http_throughput_kbps", sprintf("%.6f", HTTP_BYTES * 8 / (t1 - t0) / 1000))
}
