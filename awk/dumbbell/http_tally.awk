#!/usr/bin/gawk -f
# http_tally.awk - one run of the dumbbell's HTTP reading from the patched ns-2's WiredTally stream
# (trace_level tally): every metric of http.awk, the same definitions, checks and exit codes,
# without a text trace. ns counts wired.awk's metrics and, given `param servers`, http.awk's
# packet metrics (ns2/patches/0007: http_data_delay_pkts, http_data_delay_ms_mean,
# http_drops_total, http_throughput_kbps); this program checks the stream (lib/tally.awk) and
# reads PackMimeHTTP's two logs once it has ended (lib/http_logs.awk), as http.awk does.
#
# usage: LC_ALL=C AWKPATH=AWK_DIR/lib gawk -f AWK_DIR/dumbbell/http_tally.awk (http.awk's -v
#          variables) STREAM|-
# Reads: the WiredTally stream (lib/tally.awk's header defines its lines; its parameters include
#   servers, which must equal -v servers as text) and the two logs (http.awk's header).
# Metrics: http.awk's (its header defines each). http_data_delay_ms_mean is empty when ns
#   counted no such packet (ns writes no line for it then); the other three must be in the
#   stream.
# Output: "name<TAB>value" lines in LC_ALL=C order. Exit: as http.awk (0, 2, 3).
BEGIN { PROG = "http_tally.awk"; tally = 1; TALLY_MORE_PARAMS = "servers" }

# Before lib/tally.awk's END, which checks the stream and prints every metric recorded.
END { if (!WIRED_USAGE && !HTTP_USAGE) { http_logs_report(); http_tally_packets() } }

@include "tally.awk"
@include "wired_params.awk"
@include "http_logs.awk"

# The packet metrics ns counted: present in a stream that reports no failure.
function http_tally_packets(    i, need) {
    if (!TALLY_ENDED || TALLY_V["failed"] + 0 > 0) return
    split("http_data_delay_pkts http_drops_total http_throughput_kbps", need, " ")
    for (i in need) if (!(need[i] in TALLY_M)) fail("metric " need[i] " missing (ns counted without the servers parameter?)")
    if ("http_data_delay_ms_mean" in TALLY_M) return
    if (TALLY_M["http_data_delay_pkts"] + 0 > 0) fail("metric http_data_delay_ms_mean missing (" TALLY_M["http_data_delay_pkts"] " packets counted)")
    else metric("http_data_delay_ms_mean", "")
}
