#!/usr/bin/gawk -f
# http.awk - one run of the dumbbell's HTTP reading (PackMimeHTTP over FullTcp) in one streamed
# pass over its ns-2 trace: every metric of dumbbell.awk (lib/wired.awk, the same definitions and
# checks), and the web objects' - their response times from PackMimeHTTP's two logs, read once
# the trace has ended (ns-2 writes and flushes a log line as each request goes out and each
# response completes, before the scenario's finish closes the trace), and the responses' data
# packets from the trace.
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
END { if (!WIRED_USAGE && !HTTP_USAGE) http_report() }

@include "wired.awk"

BEGIN {
    if (!WIRED_USAGE && (objects_file == "" || requests_file == "" || servers == "" || client == "")) {
        print PROG ": set -v objects_file=... -v requests_file=... -v servers=a,b,... -v client=..." > "/dev/stderr"
        HTTP_USAGE = 1; WIRED_USAGE = 1; exit 2
    }
    n = split(servers, parts, ",")
    for (i = 1; i <= n; i++) HTTP_SERVER[parts[i]] = 1
}

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

# One log line's checks: its field count, time order, end and server; 1 when it passes.
function http_line_ok(file, fields, ts, where,    t) {
    if (NF != fields) { http_fail(file, "malformed line (" NF " fields, " fields " expected): " substr($0, 1, 80)); return 0 }
    if (ts !~ /^[0-9]+(\.[0-9]*)?$/) { http_fail(file, "time is not a number: '" substr(ts, 1, 40) "'"); return 0 }
    t = ts + 0
    if (t < HTTP_LAST[file]) { http_fail(file, "time goes back: " ts " after " HTTP_LAST[file]); return 0 }
    HTTP_LAST[file] = t
    if (t > t_end + 1e-6) { http_fail(file, "time " ts " after the scenario's end " t_end); return 0 }
    if (!(int(where) in HTTP_SERVER)) { http_fail(file, "server " where " is not one of the servers " servers); return 0 }
    return 1
}

function http_fail(file, msg) {
    if (FAILED < 10) print PROG ": " file ": line " HTTP_FNR ": " msg > "/dev/stderr"
    FAILED++
}

function http_report(    line, ok, req, rt, n, nreq, sum, bytes, v, rank, max) {
    HTTP_FNR = 0
    while ((ok = (getline line < requests_file)) > 0) {
        HTTP_FNR++; $0 = line
        if (http_line_ok(requests_file, 4, $1, $4) && $1 + 0 >= t0 && $1 + 0 <= t1) nreq++
    }
    if (ok < 0) http_fail(requests_file, "cannot be read")
    close(requests_file)
    HTTP_FNR = 0
    while ((ok = (getline line < objects_file)) > 0) {
        HTTP_FNR++; $0 = line
        if (!http_line_ok(objects_file, 6, $1, $5)) continue
        rt = $4 + 0
        if ($4 !~ /^[0-9]+(\.[0-9]*)?$/ || rt <= 0 || rt > ($1 + 0) * 1000.0 + 1e-3) {
            http_fail(objects_file, "response time " $4 " ms is not within (0, its completion time]"); continue
        }
        # The log's 1 us (time) and 1 us (response time) roundings: 2 us of slack at t0.
        req = $1 - rt / 1000.0
        if (req < t0 - 2e-6 || req > t1) continue
        n++; sum += rt; bytes += $3; v[n] = rt
        if (rt > max) max = rt
    }
    if (ok < 0) http_fail(objects_file, "cannot be read")
    close(objects_file)
    if (n > nreq) http_fail(objects_file, n " objects completed of " nreq " requested in the window")
    metric("http_requests", sprintf("%d", nreq))
    metric("http_objects", sprintf("%d", n))
    metric("http_unfinished", sprintf("%d", nreq - n))
    asort(v)
    rank = int(0.95 * n + 0.999999); if (rank < 1) rank = 1
    metric("http_response_ms_mean", n ? sprintf("%.6f", sum / n) : "")
    metric("http_response_ms_p95", n ? sprintf("%.6f", v[rank]) : "")
    metric("http_response_ms_max", n ? sprintf("%.6f", max) : "")
    metric("http_response_bytes_mean", n ? sprintf("%.6f", bytes / n) : "")
    metric("http_data_delay_pkts", sprintf("%d", HTTP_DN))
    metric("http_data_delay_ms_mean", HTTP_DN ? sprintf("%.6f", HTTP_DSUM / HTTP_DN) : "")
    metric("http_drops_total", sprintf("%d", HTTP_DROPS))
    metric("http_throughput_kbps", sprintf("%.6f", HTTP_BYTES * 8 / (t1 - t0) / 1000))
}
