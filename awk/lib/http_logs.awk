# http_logs.awk - (library) the HTTP reading's web objects from PackMimeHTTP's two logs, read once the
# run's trace or tally stream has ended (dumbbell/http.awk and dumbbell/http_tally.awk).
#
# Reads: objects_file (PackMimeHTTP set-outfile, one line per completed object) and
#   requests_file (set-samples-outfile, one line per request), their fields as
#   dumbbell/http.awk's header defines them.
# Parameters (-v): objects_file, requests_file - the two logs; servers - the server nodes
#   "a,b,..."; client - the client node; t0, t1, t_end as lib/wired_params.awk's.
# Metrics (dumbbell/http.awk defines them): http_requests, http_objects, http_unfinished,
#   http_response_ms_mean, http_response_ms_p95, http_response_ms_max, http_response_bytes_mean.
# Checks: dumbbell/http.awk's on the logs (each failure names the file and line).
# Needs lib/metrics.awk (metric, FAILED). Functions: http_logs_report() in END; globals
#   HTTP_SERVER (the server nodes), HTTP_USAGE (1 when an HTTP parameter is missing).

BEGIN {
    if (!WIRED_USAGE && (objects_file == "" || requests_file == "" || servers == "" || client == "")) {
        print PROG ": set -v objects_file=... -v requests_file=... -v servers=a,b,... -v client=..." > "/dev/stderr"
        HTTP_USAGE = 1; WIRED_USAGE = 1; exit 2
    }
    n = split(servers, parts, ",")
    for (i = 1; i <= n; i++) HTTP_SERVER[parts[i]] = 1
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

function http_logs_report(    line, ok, req, rt, n, nreq, sum, bytes, v, rank, max) {
    FS = " "  # the logs' fields are blank-separated (a tally stream's reader has set FS to a tab)
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
}
